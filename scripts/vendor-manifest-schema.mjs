// Refreshes tests/fixtures/bank-template-schema.json from Hindsight's published bank-template
// JSON schema: npm run schema:vendor -- <path or URL of the schema>.
// Only the validation keywords are kept (descriptions, titles and examples are the upstream's
// prose); tests/manifest-schema-coverage.test.ts holds our validator to every one of them.
import { readFile, writeFile } from "node:fs/promises";

const ANNOTATIONS = new Set(["description", "title", "example", "examples"]);
const source = process.argv[2];
if (!source) {
  console.error("usage: node scripts/vendor-manifest-schema.mjs <schema.json path or URL>");
  process.exit(2);
}
const text = /^https?:/.test(source) ? await (await fetch(source)).text() : await readFile(source, "utf8");

/** Drops annotation keywords, but never a property that happens to be named like one. */
function strip(node, underProperties = false) {
  if (Array.isArray(node)) return node.map((item) => strip(item));
  if (node === null || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => underProperties || !ANNOTATIONS.has(key))
      .map(([key, value]) => [key, strip(value, !underProperties && (key === "properties" || key === "$defs"))]),
  );
}

const target = new URL("../tests/fixtures/bank-template-schema.json", import.meta.url);
await writeFile(target, `${JSON.stringify(strip(JSON.parse(text)), null, 2)}\n`);
console.log(`wrote ${target.pathname}`);
