#!/usr/bin/env node
import { register as registerCommonJs } from "tsx/cjs/api";
// Runs the CLI's TypeScript sources directly through tsx, so the package needs no build step.
// Both hooks: the ESM one for this import, the CommonJS one because .ts files of a package
// without "type": "module" are CommonJS to Node.
import { register } from "tsx/esm/api";

register();
registerCommonJs();
await import("../cli/main.ts");
