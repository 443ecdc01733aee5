// Mantine's Modal, reached only through `import()` (see lazy.tsx and LazyModal.tsx),
// so its code stays out of the pages' first load.
export { Modal } from "@mantine/core";
