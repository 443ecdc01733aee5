// Mantine's Tooltip, reached only through `import()` (see IdleTooltip), so floating-ui
// stays out of the first load of pages that have no other popup.
export { Tooltip } from "@mantine/core";
