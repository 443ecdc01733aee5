import { describe, expect, it } from "vitest";
import { z } from "zod";
import { problemMessages } from "@/lib/client/messages";
import { ApiProblem, describeError } from "@/lib/client/problem";
import { DomainError } from "@/lib/contracts/errors";
import { listEndpoints } from "@/lib/contracts/registry/endpoints";
import { errorMap, issuesToFieldErrors, parseOrThrow } from "@/lib/contracts/validation";

// What zod's own English says ("Too small: expected string to have >=1 characters",
// "Invalid input: expected number, received string"): none of it may reach a reader.
const LIBRARY_WORDING = /Too small|Too big|\bexpected\b|Invalid input|Invalid option|Invalid string|received|Unrecognized key|>=|<=/i;

type Shape = Record<string, z.ZodType>;

/** The object schema under optional/nullable/default wrappers, if there is one. */
function objectShape(schema: z.ZodType): Shape | null {
  let inner: z.ZodType = schema;
  for (let i = 0; i < 10; i++) {
    if (inner instanceof z.ZodObject) return inner.shape as Shape;
    if (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable || inner instanceof z.ZodDefault) {
      inner = inner.unwrap() as z.ZodType;
    } else if (inner instanceof z.ZodPipe) {
      inner = inner.in as z.ZodType;
    } else return null;
  }
  return null;
}

/** A value that parses, to build bodies where one field at a time is wrong. */
const SAMPLES: unknown[] = [
  "sample-1",
  "https://example.com/templates.json",
  "a1",
  1,
  256,
  true,
  [],
  {},
  ["x"],
  "admin",
  "2026-11-22T10:15:30.123Z",
];
function validValue(schema: z.ZodType): unknown {
  const shape = objectShape(schema);
  if (shape) {
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(shape)) {
      if (field.safeParse(undefined).success) continue;
      out[key] = validValue(field);
    }
    return out;
  }
  return SAMPLES.find((value) => schema.safeParse(value).success);
}

/** Typical mistakes a caller makes with one field. */
const FAILURES: [string, unknown][] = [
  ["missing", undefined],
  ["null", null],
  ["empty text", ""],
  ["blank text", "   "],
  ["long text", "x".repeat(5000)],
  ["text with bad characters", "Bad Id!"],
  ["a number", 42],
  ["a negative number", -1],
  ["a fraction", 1.5],
  ["a huge number", 1e12],
  ["text for a number", "twelve"],
  ["a boolean", false],
  ["a list", [1, "a"]],
  ["a long list", Array.from({ length: 2000 }, () => "x")],
  ["an object", { unexpected: 1 }],
  ["a loopback URL", "http://127.0.0.1/templates.json"],
  ["an ftp URL", "ftp://example.com/templates.json"],
];

interface Case {
  where: string;
  schema: z.ZodType;
  value: unknown;
}

function cases(): Case[] {
  const out: Case[] = [];
  for (const endpoint of listEndpoints()) {
    const name = `${endpoint.method} ${endpoint.path}`;
    for (const [part, schema] of [
      ["body", endpoint.body],
      ["query", endpoint.query],
      ["path", endpoint.params],
    ] as const) {
      if (!schema) continue;
      out.push({ where: `${name} ${part} as a string`, schema, value: "not an object" });
      out.push({ where: `${name} ${part} empty`, schema, value: {} });
      const base = validValue(schema);
      const shape = objectShape(schema);
      if (!shape || typeof base !== "object" || base === null) continue;
      out.push({ where: `${name} ${part} with an unknown field`, schema, value: { ...base, surprise: 1 } });
      for (const key of Object.keys(shape)) {
        for (const [label, bad] of FAILURES) {
          out.push({ where: `${name} ${part}.${key} ${label}`, schema, value: { ...base, [key]: bad } });
        }
      }
    }
  }
  return out;
}

describe("errorMap", () => {
  it("words every failure of every endpoint's body, query and path schemas for people", () => {
    const all = cases();
    expect(all.length).toBeGreaterThan(500);
    let failures = 0;
    const wordy: string[] = [];
    for (const { where, schema, value } of all) {
      const result = schema.safeParse(value, { error: errorMap });
      if (result.success) continue;
      failures++;
      for (const error of issuesToFieldErrors(result.error.issues)) {
        if (LIBRARY_WORDING.test(error.message)) wordy.push(`${where}: ${error.path} ${error.message}`);
        // A message reads after its path: lower case, no full stop of its own.
        expect(error.message, where).toMatch(/^[a-z]/);
      }
    }
    expect(failures).toBeGreaterThan(300);
    expect(wordy).toEqual([]);
  });

  it("says what is wrong in a sentence for the usual cases", () => {
    const messages = (schema: z.ZodType, value: unknown) =>
      issuesToFieldErrors((schema.safeParse(value, { error: errorMap }).error?.issues ?? []) as z.core.$ZodIssue[]).map((e) => e.message);
    expect(messages(z.object({ name: z.string().min(1) }), { name: "" })).toEqual(["must not be empty"]);
    expect(messages(z.object({ name: z.string().min(1) }), {})).toEqual(["is required"]);
    expect(messages(z.string().max(200), "x".repeat(201))).toEqual(["must be at most 200 characters"]);
    expect(messages(z.string().min(3), "ab")).toEqual(["must be at least 3 characters"]);
    expect(messages(z.string().length(2), "abc")).toEqual(["must be exactly 2 characters"]);
    expect(messages(z.enum(["admin", "member"]), "owner")).toEqual(["must be one of admin, member"]);
    expect(messages(z.literal("1"), "2")).toEqual(['must be "1"']);
    expect(messages(z.int(), 1.5)).toEqual(["must be a whole number"]);
    expect(messages(z.coerce.number().int(), "1.5")).toEqual(["must be a whole number"]);
    expect(messages(z.number().int().min(1), 0)).toEqual(["must be at least 1"]);
    expect(messages(z.number().max(100), 101)).toEqual(["must be at most 100"]);
    expect(messages(z.number().nonnegative(), -1)).toEqual(["must not be negative"]);
    expect(messages(z.number().positive(), 0)).toEqual(["must be greater than 0"]);
    expect(messages(z.number(), "x")).toEqual(["must be a number"]);
    expect(messages(z.number(), Number.NaN)).toEqual(["must be a number"]);
    expect(messages(z.coerce.number(), "abc")).toEqual(["must be a number"]);
    expect(messages(z.number(), Number.POSITIVE_INFINITY)).toEqual(["must be a finite number"]);
    expect(messages(z.boolean(), "yes")).toEqual(["must be true or false"]);
    expect(messages(z.array(z.string()).min(1), [])).toEqual(["must list at least one item"]);
    expect(messages(z.array(z.string()).max(2), ["a", "b", "c"])).toEqual(["must be at most 2 items"]);
    expect(messages(z.email(), "nope")).toEqual(["must be an email address"]);
    expect(messages(z.url(), "nope")).toEqual(["must be a URL"]);
    expect(messages(z.string().regex(/^a+$/), "b")).toEqual(["is not in the required format"]);
    expect(messages(z.string().regex(/^a+$/, "must be only a's"), "b")).toEqual(["must be only a's"]);
    expect(messages(z.stringbool(), "maybe")[0]).not.toMatch(LIBRARY_WORDING);
    expect(messages(z.union([z.string(), z.number()]), true)).toEqual(["is not any of the accepted forms"]);
    expect(messages(z.object({}).strict(), { extra: 1 })).toEqual(["is not a known field"]);
    expect(
      messages(
        z.string().refine(() => false),
        "x",
      ),
    ).toEqual(["is not valid"]);
  });

  it("gives the 422's detail as a sentence naming the first field", () => {
    const schema = z.object({ name: z.string().min(1), id: z.string().max(3) });
    let thrown: unknown;
    try {
      parseOrThrow(schema, { name: "", id: "abcd" }, "request body");
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DomainError);
    const problem = thrown as DomainError;
    expect(problem.detail).toBe("The request body is invalid: name must not be empty (and 1 more problem).");
    expect(problem.errors).toEqual([
      { path: "name", message: "must not be empty" },
      { path: "id", message: "must be at most 3 characters" },
    ]);
  });
});

describe("problemMessages (the console's one mapping)", () => {
  const TYPE = "urn:bank-templates:problem:";
  const invalid = (errors: { path: string; message: string }[]) =>
    new ApiProblem(
      422,
      "Unprocessable Content",
      `The request body is invalid: ${errors[0]?.path} ${errors[0]?.message}.`,
      errors,
      `${TYPE}validation-failed`,
    );

  it("puts each field error at its field, nested paths at the field they start with", () => {
    const problem = invalid([
      { path: "name", message: "must not be empty" },
      { path: "tags[1]", message: "must be a string" },
      { path: "id", message: "must be at most 128 characters" },
    ]);
    expect(problemMessages(problem, ["id", "name", "tags"] as const)).toEqual({
      fields: { name: "must not be empty", tags: "item 2 must be a string", id: "must be at most 128 characters" },
      form: null,
    });
  });

  it("says in a sentence what no field of the form shows", () => {
    const problem = invalid([
      { path: "name", message: "must not be empty" },
      { path: "surprise", message: "is not a known field" },
    ]);
    expect(problemMessages(problem, ["name"] as const)).toEqual({
      fields: { name: "must not be empty" },
      form: "Also: surprise is not a known field.",
    });
    expect(problemMessages(invalid([{ path: "surprise", message: "is not a known field" }]), ["name"] as const).form).toBe(
      "The request body is invalid: surprise is not a known field.",
    );
  });

  it("places refusals without errors by problem type or status, and words known types for the console", () => {
    const wrong = new ApiProblem(422, "Unprocessable Content", "Wrong.", [], `${TYPE}wrong-password`);
    expect(problemMessages(wrong, ["current_password"] as const, { typeFields: { "wrong-password": "current_password" } }).fields).toEqual({
      current_password: "Wrong.",
    });
    const gone = new ApiProblem(404, "Not Found", "No template server/x.", [], `${TYPE}not-found`);
    expect(problemMessages(gone, ["template"] as const, { statusFields: { 404: "template" } })).toEqual({
      fields: { template: "No template server/x." },
      form: null,
    });
    const lastAdmin = new ApiProblem(409, "Conflict", "Cannot demote ada: it is the last active admin.", [], `${TYPE}last-admin`);
    expect(problemMessages(lastAdmin, ["role"] as const).form).toBe(
      "Cannot demote ada: it is the last active admin. Make another user an active admin first.",
    );
    const limited = new ApiProblem(429, "Too Many Requests", "Retry after 60 seconds.", [], `${TYPE}rate-limited`);
    expect(describeError(limited)).toBe("Too many attempts in a short time. Wait a minute, then try again.");
    const edits = new ApiProblem(
      409,
      "Conflict",
      "Template t has local edits; update with force=true to replace them.",
      [],
      `${TYPE}local-edits`,
    );
    expect(describeError(edits)).not.toContain("force=true");
    expect(problemMessages(new Error("boom"), ["name"] as const)).toEqual({ fields: {}, form: "boom" });
    expect(problemMessages(null, ["name"] as const)).toEqual({ fields: {}, form: null });
  });
});
