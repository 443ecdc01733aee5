// The minimal Next.js app of `npm run bench` (bench/throughput.ts builds it in a temporary copy).
// Standalone, as the app is built: both are served by a standalone build's server.
export default { output: "standalone" };
