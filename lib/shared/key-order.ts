/**
 * zod builds a new object for every object schema it parses, with the schema's keys first, in
 * the schema's order. Bodies keep the order their sender gave (CONTRACT §12: a manifest is
 * answered with its keys in the order received), so after validation the parsed value's keys
 * are put back in the order of the raw JSON. Values stay as parsed (trimmed strings, defaults);
 * keys the schema added (defaults) follow the sender's.
 */
export function inSenderKeyOrder<T>(parsed: T, raw: unknown): T {
  if (Array.isArray(parsed)) {
    if (!Array.isArray(raw)) return parsed;
    return parsed.map((item, index) => inSenderKeyOrder(item, raw[index])) as T;
  }
  if (!isPlainObject(parsed) || !isPlainObject(raw)) return parsed;
  // Object.fromEntries defines own properties, so a `__proto__` key stays a plain key.
  const entries: Array<[string, unknown]> = [];
  for (const key of Object.keys(raw)) {
    if (Object.hasOwn(parsed, key)) entries.push([key, inSenderKeyOrder(parsed[key], raw[key])]);
  }
  for (const key of Object.keys(parsed)) {
    if (!Object.hasOwn(raw, key)) entries.push([key, parsed[key]]);
  }
  return Object.fromEntries(entries) as T;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
