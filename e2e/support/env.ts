// What the e2e servers are started with, shared by playwright.config.ts and the specs.
// Each Playwright worker slot has a server of its own, with its own embedded database, so
// the spec files one worker runs in order see only each other's data, as with one worker.
// E2E_PORT (the first server's port) lets two checkouts run their browser tests at once.

/** How many workers, so servers, the run has: 2 by default (the CI machine's cores). */
export const E2E_WORKERS = Number(process.env.E2E_WORKERS) || 2;
/** The port of slot `index`'s server: a hundred apart, clear of the ports specs start servers on. */
export const serverPort = (index: number) => (Number(process.env.E2E_PORT) || 3210) + 100 * index;
/** This worker's slot (Playwright sets TEST_PARALLEL_INDEX in each worker; a retry keeps the slot). */
const slot = Number(process.env.TEST_PARALLEL_INDEX ?? 0);
export const E2E_PORT = serverPort(slot);
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
/** Where slot `index`'s server keeps its database and log, below the run's directory. */
export const serverDataDir = (runDir: string, index: number) => `${runDir}/server-${index}`;
/** This worker's server's directory. */
export const E2E_SERVER_DIR = serverDataDir(process.env.E2E_DATA_DIR ?? "", slot);
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
