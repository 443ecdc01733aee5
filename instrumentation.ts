// Runs once when the server starts: migrate, bootstrap and warm the database before traffic.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { getApp } = await import("@/lib/server/app");
  const { logError } = await import("@/lib/server/log");
  try {
    await getApp();
  } catch (error) {
    const { ConfigError } = await import("@/lib/server/config");
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    // The database may come up later; requests answer 503 and retry start-up until then.
    logError("start-up failed", error);
  }
}
