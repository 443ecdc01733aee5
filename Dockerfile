# syntax=docker/dockerfile:1
# The console as a container image: `next build` with `output: "standalone"` (next.config.mjs),
# and a runtime stage that holds only the traced server, its static assets and public/.
# e2e/deployment.spec.ts rebuilds the runtime stage's files from the COPY lines below and runs
# its CMD: a COPY added, moved or dropped here is checked there.

# Every stage on one base, so the native packages npm picks (argon2, sharp) match the runtime's libc.
FROM node:20-bookworm-slim AS deps
WORKDIR /app
# swagger-ui-dist's analytics install script would try to phone home during the build.
ENV SCARF_ANALYTICS=false
COPY package.json package-lock.json ./
# Fixes to dependencies that npm ci applies (its postinstall runs patch-package).
COPY patches ./patches
# The whole tree, dev dependencies included: `next build` type-checks with TypeScript.
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund

FROM node:20-bookworm-slim AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
COPY --from=deps /app/node_modules ./node_modules
COPY . .
# The app has no public/ today; making it keeps the runtime COPY valid whether or not one is added.
# `next build`, then our server (lib/server/http-server.cjs) in place of the generated server.js.
RUN mkdir -p public && node scripts/build.mjs

FROM node:20-bookworm-slim AS runtime
WORKDIR /app
# HOSTNAME: Docker sets it to the container's id, and server.js listens on HOSTNAME; 0.0.0.0
# listens on every interface. DATA_DIR only matters without DATABASE_URL (embedded PGlite and
# its generated secret key): mount a volume there to keep that data.
ENV NODE_ENV=production PORT=3000 HOSTNAME=0.0.0.0 DATA_DIR=/data NEXT_TELEMETRY_DISABLED=1
# The standalone server (server.js, the traced node_modules, db/migrations) and what it serves
# from disk. Root owns them: the process running as `node` cannot rewrite its own code.
COPY --from=build /app/.next/standalone ./
COPY --from=build /app/.next/static ./.next/static
COPY --from=build /app/public ./public
# The only places the server writes: Next's runtime cache and the embedded database.
RUN mkdir -p .next/cache /data && chown node:node .next/cache /data
# The unprivileged user the node image ships (uid 1000).
USER node
EXPOSE 3000
# Ready means the database answers (GET /readyz); slim images have no curl, so node's fetch asks.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "server.js"]
