// npm run hindclaw-client:generate – writes tests/hindclaw-client/schema.d.ts, the types of the strict
// client tests drive our API with, from hindclaw's vendored OpenAPI document (tests/fixtures).
import { writeFileSync } from "node:fs";
import { generateHindclawSchema, HINDCLAW_SCHEMA_PATH } from "@/tests/hindclaw-client/generate";

void generateHindclawSchema().then((text) => {
  writeFileSync(HINDCLAW_SCHEMA_PATH, text);
  console.log(`Wrote ${HINDCLAW_SCHEMA_PATH}`);
});
