import { createHash } from "node:crypto";
import { JsonText } from "@/lib/shared/json-text";

/** The strong entity tag of an answer's JSON text: a digest, so it changes exactly when the bytes do. */
export const textEntityTag = (text: string) => `"${createHash("sha256").update(text).digest("base64url").slice(0, 27)}"`;

/**
 * The strong entity tag of a representation (CONTRACT §19): the tag of the JSON the API sends
 * for it, so two processes agree on it with nothing stored. JsonText answers (the hot template
 * reads) are byte for byte what JSON.stringify gives for the same object
 * (tests/template-json.test.ts), so a write that holds the resource as an object tags it as a GET does.
 */
export const entityTag = (representation: unknown) =>
  textEntityTag(representation instanceof JsonText ? representation.text : JSON.stringify(representation));
