// npm start: builds only when the sources changed since the last build, then serves on PORT
// with the standalone server, as the Docker image does (next.config.mjs: output "standalone").
import { spawn } from "node:child_process";
import path from "node:path";
import nextEnv from "@next/env";
import { buildIfChanged, placeStandaloneAssets } from "./build-if-changed.mjs";

const root = process.cwd();
const status = buildIfChanged(root);
if (status !== 0) process.exit(status);

// The standalone server reads no .env files of the project: load them as `next start` would.
nextEnv.loadEnvConfig(root, false);
// A build made by `next build` alone lacks the static files beside the server.
placeStandaloneAssets(root);
const standalone = path.join(root, ".next", "standalone");

const server = spawn(process.execPath, [path.join(standalone, "server.js")], {
  stdio: "inherit",
  env: {
    NEXT_TELEMETRY_DISABLED: "1",
    ...process.env,
    PORT: process.env.PORT || "3000",
    // Not the shell's HOSTNAME (the machine's name): every interface, as `next start` listens.
    HOSTNAME: "0.0.0.0",
    // The server changes into .next/standalone; a relative data directory stays the project's.
    DATA_DIR: path.resolve(root, process.env.DATA_DIR || ".data"),
  },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
