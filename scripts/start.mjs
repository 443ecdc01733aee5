// npm start: builds only when the sources changed since the last build, then serves on PORT.
import { spawn } from "node:child_process";
import path from "node:path";
import { buildIfChanged } from "./build-if-changed.mjs";

const root = process.cwd();
const status = buildIfChanged(root);
if (status !== 0) process.exit(status);

const port = process.env.PORT || "3000";
const server = spawn(process.execPath, [path.join(root, "node_modules", "next", "dist", "bin", "next"), "start", "-p", port], {
  stdio: "inherit",
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
