// npm run client:generate – writes the generated client types: client/schema.d.ts from our OpenAPI
// document, built from the zod schemas in process (no server, no database), and
// tests/hindclaw-client/schema.d.ts from hindclaw's vendored document (the strict client of the tests).
import { writeFileSync } from "node:fs";
import { CLIENT_SCHEMA_PATH, generateClientSchema } from "@/lib/contracts/registry/client-schema";
import { buildOpenApiDocument } from "@/lib/contracts/registry/openapi";
import { generateHindclawSchema, HINDCLAW_SCHEMA_PATH } from "@/tests/hindclaw-client/generate";

const outputs: Array<[string, Promise<string>]> = [
  [CLIENT_SCHEMA_PATH, generateClientSchema(buildOpenApiDocument())],
  [HINDCLAW_SCHEMA_PATH, generateHindclawSchema()],
];
void (async () => {
  for (const [path, text] of outputs) {
    writeFileSync(path, await text);
    console.log(`Wrote ${path}`);
  }
})();
