/**
 * The bootstrap admin token of the test app. Apart from app.ts so the setup file that scans log
 * lines for it (log-scan.ts) does not load the app and its route table into every test file.
 */
export const ADMIN_TOKEN = `test-admin-token-${"x".repeat(32)}`;
