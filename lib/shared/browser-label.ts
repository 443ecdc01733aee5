/**
 * A User-Agent reduced to what a person recognises their session by: "Firefox on Windows",
 * "Safari on iOS". Only this label is stored, never the header, which fingerprints a user.
 * The order of the checks matters: Edge and Opera say "Chrome", Chrome says "Safari",
 * and iPads and Android phones also say "Linux" or "Mac OS X".
 */
const BROWSERS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bEdg(?:e|A|iOS)?\//, "Edge"],
  [/\b(?:OPR|Opera)\//, "Opera"],
  [/\b(?:Firefox|FxiOS)\//, "Firefox"],
  [/\bChromium\//, "Chromium"],
  [/\b(?:Chrome|CriOS)\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
  [/\bcurl\//, "curl"],
];

const SYSTEMS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(?:iPhone|iPad|iPod)\b/, "iOS"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bLinux\b|\bX11\b/, "Linux"],
];

const first = (table: ReadonlyArray<readonly [RegExp, string]>, userAgent: string) =>
  table.find(([pattern]) => pattern.test(userAgent))?.[1] ?? null;

/** The label of a User-Agent header, or null when it names neither a known browser nor a known system. */
export function browserLabel(userAgent: string | null | undefined): string | null {
  if (!userAgent) return null;
  // A header is bounded by the server; this bounds the regular expressions' work as well.
  const header = userAgent.slice(0, 512);
  // Headless Chromium says "HeadlessChrome", which the Chrome pattern does not take.
  const browser = /\bHeadlessChrome\//.test(header) ? "Chromium" : first(BROWSERS, header);
  const system = first(SYSTEMS, header);
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? (system ? `A browser on ${system}` : null);
}
