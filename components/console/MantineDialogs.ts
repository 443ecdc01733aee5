// Mantine's Modal and Drawer, reached only through `import()` (see lazy.tsx and LazyModal.tsx),
// so their code stays out of the pages' first load.
export { Drawer, Modal } from "@mantine/core";
