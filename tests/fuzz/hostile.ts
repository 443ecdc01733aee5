import fc from "fast-check";

/**
 * Hostile building blocks: strings, numbers, keys, nesting and raw bodies that a careless
 * pipeline turns into a 500 (PostgreSQL refuses U+0000 and unpaired surrogates, recursion
 * overflows the stack, drivers choke on out-of-range numbers).
 */

/** Strings PostgreSQL cannot store, or that decode into something else on the way. */
const UNSTORABLE_STRINGS = [
  "\u0000",
  "a\u0000b",
  "\u0000\u0000\u0000",
  "\ud800",
  "x\udfff",
  "\udc00\ud800",
  "ok\ud83d",
  "\ud83d\u0000",
] as const;

/** Strange but storable unicode: it must pass or fail validation, never crash. */
const STRANGE_STRINGS = [
  "",
  " ",
  "\t\n\r",
  "\u2028\u2029",
  "\ufeffbom",
  "\u202eevil",
  "e\u0301\u0301\u0301",
  "\u{1F4A5}\u{1F469}\u200d\u{1F4BB}",
  "𝒜𝒷𝒸",
  "ｆｕｌｌｗｉｄｔｈ",
  "Ω≈ç√∫",
  "\u0085\u00a0\u1680",
  "\u007f\u0001\u001f",
  "null",
  "undefined",
  "true",
  "0",
  "-1",
  "1e309",
  "NaN",
  "'; drop table users; --",
  "%00",
  "%ff",
  "../../etc/passwd",
  "a/b",
  "a.b[0]",
  "__proto__",
  "constructor",
  "$where",
  "{{7*7}}",
  "<script>alert(1)</script>",
  "http://127.0.0.1:1/",
] as const;

/** Keys worth adding to any object: unknown, unstorable, prototype-ish, path-like. */
const HOSTILE_KEYS = [
  "unknown_field",
  "",
  " ",
  "\u0000",
  "k\u0000ey",
  "\ud800",
  "key\udfff",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "a.b",
  "[0]",
  "x".repeat(300),
  "\u{1F4A5}",
] as const;

const HOSTILE_NUMBERS = [
  0,
  -0,
  -1,
  1,
  0.5,
  -0.5,
  4.5,
  6,
  255,
  256,
  257,
  8192,
  8193,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 2,
  -Number.MAX_SAFE_INTEGER - 2,
  2 ** 63,
  1e308,
  -1e308,
  5e-324,
  Number.MAX_VALUE,
] as const;

/** Lengths around common column limits and the 1 MiB body limit. */
const LONG_STRING_LENGTHS = [64, 65, 100, 101, 128, 129, 200, 201, 320, 2049, 5001, 8193, 70_000] as const;

/** A value nested `depth` levels deep (arrays, objects or both), built without recursion. */
function nested(depth: number, shape: "array" | "object" | "mixed"): unknown {
  let value: unknown = "leaf";
  for (let i = 0; i < depth; i++) {
    const asArray = shape === "array" || (shape === "mixed" && i % 2 === 0);
    value = asArray ? [value] : { n: value };
  }
  return value;
}

/** Nesting depths around the limit of 64, and far past it. */
const NESTING_DEPTHS = [2, 63, 64, 65, 66, 100, 1400] as const;

const unstorableString = fc.constantFrom(...UNSTORABLE_STRINGS);
const strangeString = fc.constantFrom(...STRANGE_STRINGS);

/** A string built from random UTF-16 code units, unpaired surrogates and NUL included. */
const rawUnitString = fc.string({ unit: "binary", maxLength: 12 });

const longString = fc
  .tuple(fc.constantFrom(...LONG_STRING_LENGTHS), fc.constantFrom("a", "é", "\u{1F4A5}", "0"))
  .map(([length, unit]) => unit.repeat(length));

export const hostileString = fc.oneof(
  { weight: 4, arbitrary: unstorableString },
  { weight: 4, arbitrary: strangeString },
  { weight: 2, arbitrary: rawUnitString },
  { weight: 1, arbitrary: longString },
  // A valid-looking value with NUL or a lone surrogate tucked in.
  { weight: 2, arbitrary: fc.tuple(fc.string({ maxLength: 6 }), unstorableString).map(([s, bad]) => s + bad + s) },
);

export const hostileNumber = fc.oneof(fc.constantFrom(...HOSTILE_NUMBERS), fc.double({ noNaN: true, noDefaultInfinity: true }));

export const deepValue = fc
  .tuple(fc.constantFrom(...NESTING_DEPTHS), fc.constantFrom("array" as const, "object" as const, "mixed" as const))
  .map(([depth, shape]) => nested(depth, shape));

/** Any value of the wrong kind for most fields. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: hostileString },
  { weight: 3, arbitrary: hostileNumber },
  { weight: 3, arbitrary: fc.constantFrom<unknown>(null, true, false, [], {}, [null], { "": null }, [[]]) },
  { weight: 1, arbitrary: deepValue },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

export const hostileKey = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...HOSTILE_KEYS) }, { weight: 1, arbitrary: rawUnitString });

/** A body that is not a JSON object, or not JSON at all, with the text to send. */
export const RAW_BODY_TEXTS = [
  "",
  "   ",
  "{",
  "}",
  '{"a":',
  '{"a" 1}',
  "{'a':1}",
  '{"a":1,}',
  '{"a":1}garbage',
  '{"a":1}{"b":2}',
  "nul",
  "null",
  "true",
  "0",
  "-1e999",
  '"a string"',
  "[]",
  "[{}]",
  "[1,2,3]",
  "\ufeff{}",
  '{"description":"\\ud800"}',
  '{"description":"a\\u0000b"}',
  '{"\\u0000":1}',
  '{"\\udfff":{"\\u0000":[]}}',
  '{"__proto__":{"admin":true}}',
  '{"a":1,"a":2}',
  '{"a":"\\x41"}',
  '{"a":01}',
  '{"a":NaN}',
  '{"a":Infinity}',
  '{"a":1e99999}',
  '{"a":"\u0000raw nul"}',
  '{"a":"unterminated}',
  `{"a":[${"1,".repeat(5000)}1]}`,
  "[".repeat(65) + "]".repeat(65),
  `{"a":${"[".repeat(1400)}${"]".repeat(1400)}}`,
  `{"a":${'{"b":'.repeat(1400)}1${"}".repeat(1400)}}`,
  "[".repeat(100_000),
  `{"s":"${"[".repeat(2000)}"}`,
  // Past the 1 MiB limit: 413.
  `{"description":"${"a".repeat(1_100_000)}"}`,
] as const;

/** Byte sequences that are not UTF-8. */
export const RAW_BODY_BYTES = [
  Uint8Array.from([0xff, 0xfe, 0x7b, 0x7d]),
  Uint8Array.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc0, 0xaf, 0x22, 0x7d]),
  Uint8Array.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]),
  Uint8Array.from([0x00, 0x7b, 0x7d]),
] as const;

/** Content types: JSON spellings that must be accepted, and others that must get 415. */
export const CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "APPLICATION/JSON;CHARSET=UTF-8",
  "application/merge-patch+json",
  "application/json; charset=utf-16",
  "text/plain",
  "text/json",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=xyz",
  "application/jsonx",
  "application/octet-stream",
  ";",
  "*/*",
  "application/",
] as const;

/** Path segments sent verbatim (already percent-encoded, or deliberately not). */
export const HOSTILE_SEGMENTS = [
  "%ff",
  "%FF%FE",
  "%",
  "%zz",
  "%e0%80",
  "%ed%a0%80",
  "%c0%af",
  "%00",
  "a%00b",
  "..",
  "%2e%2e",
  ".",
  "%2F",
  "a%2Fb",
  "..%2F..%2Fadmin",
  "a/b",
  "%20",
  "%E2%80%AE",
  "%F0%9F%92%A5",
  "%25",
  "%u0041",
  "%%",
  "~",
  "'",
  ";x=1",
  "x".repeat(5000),
  "A".repeat(129),
  "-leading-dash",
  "__proto__",
] as const;

/** Query values sent verbatim after `key=`. */
export const HOSTILE_QUERY_VALUES = [
  "%00",
  "a%00b",
  "%ff",
  "%ed%a0%80",
  "%",
  "%zz",
  "-1",
  "0",
  "1.5",
  "1e3",
  "501",
  "500",
  "1",
  "NaN",
  "Infinity",
  "99999999999999999999",
  "true",
  "yes",
  "maybe",
  "%E2%80%AE",
  "+",
  "a&b=c",
  "x".repeat(3000),
] as const;

export const HOSTILE_QUERY_KEYS = ["unknown", "%00", "a%00", "%ff", "limit[]", "__proto__", "x".repeat(200)] as const;

/**
 * Credentials that must never authenticate, nor crash on the way to being refused: malformed
 * Authorization headers, unknown keys, and session cookies that are garbage, NUL after
 * decoding, chunked, or huge, with and without a same-origin proof.
 */
export const BAD_AUTHORIZATION = [
  "Bearer",
  "Bearer ",
  "Bearer a b",
  "Bearer\tabc",
  "bearer unknown-key-0000",
  "Basic YWRtaW46YWRtaW4=",
  "Token abc",
  "Bearer %00",
  "Bearer \u00ff\u00fe",
  `Bearer ${"k".repeat(5000)}`,
  `Bearer bt_${"0".repeat(40)}`,
] as const;

export const BAD_SESSION_COOKIES = [
  "next-auth.session-token=garbage",
  "next-auth.session-token=%00",
  "next-auth.session-token=%ff%fe",
  "next-auth.session-token=a%00b",
  "next-auth.session-token=%ED%A0%80",
  "next-auth.session-token.0=eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0; next-auth.session-token.1=..x.y.z",
  "next-auth.session-token=eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..AAAA.BBBB.CCCC",
  `next-auth.session-token=${"A".repeat(5000)}`,
  "__Secure-next-auth.session-token=garbage",
  "next-auth.session-token=",
  "=; ;;next-auth.session-token",
] as const;

export const ORIGIN_HEADERS = [
  {},
  { origin: "http://localhost" },
  { "sec-fetch-site": "same-origin" },
  { origin: "null" },
  { origin: "https://evil.example" },
  { origin: "not a url" },
  { "sec-fetch-site": "cross-site" },
  { "x-forwarded-proto": "https", origin: "http://localhost" },
] as const;

/** Junk left of the rightmost X-Forwarded-For entry, which is the one the rate limits read. */
export const FORWARDED_FOR_JUNK = ["", "garbage, ", "::1, ", "1.2.3.4, 5.6.7.8, ", `${"x".repeat(300)}, `, "[::1]:80, "] as const;
