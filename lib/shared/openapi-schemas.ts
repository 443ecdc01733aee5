import Ajv2020, { type Options, type ValidateFunction } from "ajv/dist/2020";

/** Where a document's components are kept in its ajv instance; `#/components/…` references are made absolute to it. */
const COMPONENTS_ID = "openapi-document";

const absoluteRefs = (schema: unknown) => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${COMPONENTS_ID}#/components/`));

/**
 * JSON Schema validators over an OpenAPI 3.1 document (whose schemas are JSON Schema 2020-12): a named
 * component schema, or any schema of the document (a parameter's, an inline response's) whose
 * `#/components/schemas/…` references resolve. One way for the server (Hindsight's defaults) and the
 * tests (hindclaw's and Hindsight's documents) to read a document's schemas. `strictSchema` is off: the
 * documents are others', and hold keywords ajv will not apply (defaults inside anyOf) but may keep.
 */
export function openApiSchemas(document: { components: unknown }, options: Options = {}) {
  const ajv = new Ajv2020({ strictSchema: false, ...options });
  // The components live at #/components/schemas/… of one schema, where the document's references point.
  ajv.addKeyword("components");
  ajv.addSchema({ $id: COMPONENTS_ID, components: document.components });
  const named = (name: string): ValidateFunction => {
    const validate = ajv.getSchema(`${COMPONENTS_ID}#/components/schemas/${name}`);
    if (!validate) throw new Error(`the document has no schema ${name}`);
    return validate;
  };
  return {
    ajv,
    named,
    compile: (schema: unknown): ValidateFunction => ajv.compile(absoluteRefs(schema)),
  };
}
