// What the e2e server is started with, shared by playwright.config.ts and the specs.
// E2E_PORT lets two checkouts run their browser tests at once.
export const E2E_PORT = Number(process.env.E2E_PORT) || 3210;
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
export const E2E_ADMIN_TOKEN = "e2e-bootstrap-admin-token-0123456789abcdef0123456789";
export const E2E_ADMIN_PASSWORD = "e2e admin password";

/** Debian's Chromium; Playwright never downloads a browser here. */
export const CHROMIUM_PATH = "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Variables a developer's shell may have that must not reach a test server. */
// (Empty counts as unset for the app. NEXTAUTH_URL is left alone: next-auth reads an empty one as a URL and fails.)
export const CLEARED_ENV = { DATABASE_URL: "", SECRET_KEY: "", OIDC_ISSUER: "", HINDSIGHT_API_URL: "" };
