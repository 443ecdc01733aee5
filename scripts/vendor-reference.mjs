// Refreshes the facts we keep of a reference document as test data:
//   npm run schema:vendor -- <kind> <path or URL of the document>
// kinds: manifest-schema (Hindsight's bank-template JSON schema), hindclaw-openapi (hindclaw's OpenAPI
// document of the operations API.md describes), hindsight-banks-openapi (Hindsight's bank endpoints),
// hindsight-bank-items-openapi (Hindsight's endpoints for one bank's mental models, directives and config).
// Only the validation facts are kept (paths, methods, parameters, status codes, schemas); descriptions,
// titles, summaries and examples are the upstream's prose and are dropped.
import { readFile, writeFile } from "node:fs/promises";

// Where each is kept: Hindsight's bank endpoints beside the code that reads their defaults at run time; the
// item endpoints are test data only (the fake Hindsight serves them; the client's defaults come from the former).
const TARGETS = {
  "manifest-schema": "tests/fixtures/bank-template-schema.json",
  "hindclaw-openapi": "tests/fixtures/hindclaw-openapi.json",
  "hindsight-banks-openapi": "lib/services/banks/hindsight-banks-openapi.json",
  "hindsight-bank-items-openapi": "tests/fixtures/hindsight-bank-items-openapi.json",
};
const ANNOTATIONS = new Set(["description", "title", "summary", "example", "examples"]);
/** Keys whose children are names (of properties, schemas, paths, status codes), never annotations. */
const NAME_MAPS = new Set(["properties", "$defs", "schemas", "paths", "responses", "content", "securitySchemes"]);

const [kind, source] = process.argv.slice(2);
if (!TARGETS[kind] || !source) {
  console.error(`usage: node scripts/vendor-reference.mjs <${Object.keys(TARGETS).join("|")}> <path or URL>`);
  process.exit(2);
}
const text = /^https?:/.test(source) ? await (await fetch(source)).text() : await readFile(source, "utf8");

/** Drops annotation keywords, but never an entry that happens to be named like one. */
function strip(node, namesHere = false) {
  if (Array.isArray(node)) return node.map((item) => strip(item));
  if (node === null || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => namesHere || !ANNOTATIONS.has(key))
      .map(([key, value]) => [key, strip(value, !namesHere && NAME_MAPS.has(key))]),
  );
}

const target = new URL(`../${TARGETS[kind]}`, import.meta.url);
await writeFile(target, `${JSON.stringify(strip(JSON.parse(text)), null, 2)}\n`);
console.log(`wrote ${target.pathname}`);
