#!/usr/bin/env node
import { fileURLToPath } from "node:url";
import { register as registerCommonJs } from "tsx/cjs/api";
// Runs the CLI's TypeScript sources directly through tsx, so the package needs no build step.
// Both hooks: the ESM one for this import, the CommonJS one because .ts files of a package
// without "type": "module" are CommonJS to Node.
import { register } from "tsx/esm/api";

// The project's tsconfig (its "@/..." paths), wherever the CLI is run from: tsx would look in the working folder.
process.env.TSX_TSCONFIG_PATH = fileURLToPath(new URL("../tsconfig.json", import.meta.url));
register();
registerCommonJs();
await import("../cli/main.ts");
