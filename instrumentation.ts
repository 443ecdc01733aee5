// Runs once when the server starts: migrate, bootstrap and warm the database before traffic.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    // Before any request: the client address the rate limits count must be the one the
    // server saw, not an X-Forwarded-For the client wrote (lib/platform/client-address.ts).
    const { appendPeerAddressToForwardedFor } = await import("@/lib/platform/peer-address");
    appendPeerAddressToForwardedFor();
    // The process metrics (CPU, memory, event loop) count from start-up, not from the first scrape.
    await import("@/lib/platform/metrics");
    const { startServer } = await import("@/lib/server/startup");
    await startServer();
  }
}
