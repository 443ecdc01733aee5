import type { MantineThemeOverride } from "@mantine/core";

// A plain object (not createTheme) so the server root layout can pass it to MantineProvider.
export const theme: MantineThemeOverride = {
  components: {
    // Mantine's close buttons are icons without a name; screen readers need one.
    Modal: { defaultProps: { closeButtonProps: { "aria-label": "Close" } } },
    Drawer: { defaultProps: { closeButtonProps: { "aria-label": "Close" } } },
  },
};
