// npm run client:generate – writes client/schema.d.ts from the OpenAPI document, built from the
// zod schemas in process: no server, no database.
import { writeFileSync } from "node:fs";
import { CLIENT_SCHEMA_PATH, generateClientSchema } from "@/lib/api/client-schema";
import { buildOpenApiDocument } from "@/lib/api/openapi";

void generateClientSchema(buildOpenApiDocument()).then((text) => {
  writeFileSync(CLIENT_SCHEMA_PATH, text);
  console.log(`Wrote ${CLIENT_SCHEMA_PATH}`);
});
