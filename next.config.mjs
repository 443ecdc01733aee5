/** @type {import('next').NextConfig} */
const nextConfig = {
  // The container image (Dockerfile) runs `.next/standalone/server.js`: the server with only the
  // node_modules files its code was traced to use, instead of the whole dependency tree.
  output: "standalone",
  // Read from disk at start-up, from a path built out of process.cwd() (db/client.ts). Tracing
  // finds them today only by reading that expression; named here, a change to how the path is
  // built cannot drop from the image the migrations the server needs before its first request.
  outputFileTracingIncludes: {
    "/**": ["./db/migrations/**/*"],
  },
  // PGlite ships WASM and data files that must be loaded from node_modules, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "@node-rs/argon2", "postgres"],
  // `next dev` serves the console at localhost; opened as 127.0.0.1 (what the README and the
  // e2e suite use), Next 16 would block its dev resources (HMR, chunks) as cross-origin.
  allowedDevOrigins: ["127.0.0.1"],
  poweredByHeader: false,
  experimental: {
    // The middleware (proxy.ts, console pages and next-auth only) buffers a request's body to read
    // it twice; 1 MiB, the limit every body has here (CONTRACT §18), not Next's default 10 MB.
    proxyClientMaxBodySize: "1mb",
    // The cache makes a developer's next build faster; a CI run builds once on a fresh clone, and
    // writing the cache it never reads cost it 20 s.
    turbopackFileSystemCacheForBuild: !process.env.CI,
  },
  reactStrictMode: true,
  // `npm run typecheck` (tsc --noEmit, which CI and the linters' step run) checks every file,
  // tests included; the build checking the app's files again cost a minute or more of every
  // first `npm start` and every CI run.
  typescript: { ignoreBuildErrors: true },
};

export default nextConfig;
