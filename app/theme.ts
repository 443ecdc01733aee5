import type { MantineThemeOverride } from "@mantine/core";

// Colour contrast (WCAG 2.2 AA, 4.5:1 for text) is settled here, once, for both colour schemes;
// the CSS variables Mantine derives but the theme cannot set (dimmed, placeholder, error…)
// are in ./a11y.css.
//
// Mantine's default palettes are bright: its light scheme uses shade 6 for filled buttons,
// links and coloured text (blue.6 on white is 3.6:1, green.6 2.4:1), and shade 9 on shade 1
// for the "light" variant (yellow 2.7:1). Here shade 8 is the filled/text/link shade in both
// schemes, and shades 8 and 9 of the palettes that were too light are darkened (the same hue,
// each channel scaled down) until shade 8 reads at ≥ 4.6:1 on white and gray.1 (and carries
// white text at ≥ 5:1), and shade 9 at ≥ 4.6:1 on its shades 1 and 2 (light badges, alerts,
// their hover). Shades 0–7 are Mantine's own.
type Palette = [string, string, string, string, string, string, string, string, string, string];

const colors: Record<string, Palette> = {
  red: ["#fff5f5", "#ffe3e3", "#ffc9c9", "#ffa8a8", "#ff8787", "#ff6b6b", "#fa5252", "#f03e3e", "#ce2d2d", "#af2525"],
  blue: ["#e7f5ff", "#d0ebff", "#a5d8ff", "#74c0fc", "#4dabf7", "#339af0", "#228be6", "#1c7ed6", "#196fbe", "#165b9c"],
  cyan: ["#e3fafc", "#c5f6fa", "#99e9f2", "#66d9e8", "#3bc9db", "#22b8cf", "#15aabf", "#1098ad", "#0b788a", "#0a697a"],
  teal: ["#e6fcf5", "#c3fae8", "#96f2d7", "#63e6be", "#38d9a9", "#20c997", "#12b886", "#0ca678", "#087c58", "#077050"],
  green: ["#ebfbee", "#d3f9d8", "#b2f2bb", "#8ce99a", "#69db7c", "#51cf66", "#40c057", "#37b24d", "#257d36", "#237133"],
  lime: ["#f4fce3", "#e9fac8", "#d8f5a2", "#c0eb75", "#a9e34b", "#94d82d", "#82c91e", "#74b816", "#49790b", "#48730a"],
  yellow: ["#fff9db", "#fff3bf", "#ffec99", "#ffe066", "#ffd43b", "#fcc419", "#fab005", "#f59f00", "#9e5c00", "#a35400"],
  orange: ["#fff4e6", "#ffe8cc", "#ffd8a8", "#ffc078", "#ffa94d", "#ff922b", "#fd7e14", "#f76707", "#bc480a", "#ab390c"],
  violet: ["#f3f0ff", "#e5dbff", "#d0bfff", "#b197fc", "#9775fa", "#845ef7", "#7950f2", "#7048e8", "#6741d9", "#5939b8"],
  indigo: ["#edf2ff", "#dbe4ff", "#bac8ff", "#91a7ff", "#748ffc", "#5c7cfa", "#4c6ef5", "#4263eb", "#3b5bdb", "#3249b7"],
};

// A plain object (not createTheme) so the server root layout can pass it to MantineProvider.
const DIALOG_ATTRIBUTES = { header: { role: "presentation" } };

export const theme: MantineThemeOverride = {
  colors,
  primaryShade: { light: 8, dark: 8 },
  // Filled components pick black or white text by the colour's luminance; at 0.179 the pick
  // always reaches ≥ 4.58:1 (the point where black and white contrast equally), also for a
  // filled colour given by shade ("yellow.4").
  autoContrast: true,
  luminanceThreshold: 0.179,
  components: {
    // A link in running text must not be told apart by colour alone (WCAG 1.4.1): underlined
    // always, not only on hover. Links that stand alone (navigation, the header's home link)
    // say underline="never" themselves.
    Anchor: { defaultProps: { underline: "always" } },
    // Mantine's close buttons are icons without a name; screen readers need one. A dialog's
    // title bar is a <header>, which outside a region counts as a second banner landmark
    // beside the console's own header: it is laid out, not a landmark.
    Modal: { defaultProps: { closeButtonProps: { "aria-label": "Close" }, attributes: DIALOG_ATTRIBUTES } },
    Drawer: { defaultProps: { closeButtonProps: { "aria-label": "Close" }, attributes: DIALOG_ATTRIBUTES } },
  },
};
