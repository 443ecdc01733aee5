import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/db/client";
import { errorToResponse } from "@/lib/http/problem";
import { logError, logger } from "@/lib/platform/log";
import { freshDatabase } from "./support/database";
import { loggedLines } from "./support/log-scan";

// Issue 18: no log line larger than 16 KB, ever. The logger bounds every line itself, so whatever
// a caller passes (a failed statement's SQL and parameters, a database error echoing a huge value,
// a huge message or field) the line stays within 16 KB and says what it cut.
const MAX_LINE_BYTES = 16 * 1024;

let db: Database;
let close: () => Promise<void>;
beforeAll(async () => {
  const fresh = await freshDatabase();
  db = fresh.handle.db;
  close = fresh.close;
});
afterAll(() => close());

/** The lines written while `write` ran, parsed; every one within the bound (with its newline). */
async function linesOf(write: () => unknown): Promise<Array<Record<string, any>>> {
  const before = loggedLines().length;
  await write();
  const lines = loggedLines().slice(before);
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) expect(Buffer.byteLength(`${line}\n`)).toBeLessThanOrEqual(MAX_LINE_BYTES);
  return lines.map((line) => JSON.parse(line) as Record<string, any>);
}

async function failure(statement: Promise<unknown>): Promise<unknown> {
  try {
    await statement;
  } catch (error) {
    return error;
  }
  throw new Error("the statement was meant to fail");
}

describe("log lines stay within 16 KB", () => {
  it("for a failed statement with 70,000 bound parameters: its SQL shortened, its parameters dropped", async () => {
    const values = Array.from({ length: 70_000 }, (_, i) => sql`${`secret-value-${i}`}`);
    const error = await failure(db.execute(sql`select ${sql.join(values, sql`, `)}`));
    const [line] = await linesOf(() => logError("unhandled error", error, { requestId: "huge-statement" }));
    expect(line).toMatchObject({ level: "error", msg: "unhandled error", requestId: "huge-statement" });
    expect(line!.error.message).toMatch(/^Failed query: select \$1, \$2, /);
    expect(line!.error.message).toContain("more characters]");
    expect(line!.error.message).toMatch(/\nparams: \[redacted\]$/);
    expect(JSON.stringify(line)).not.toContain("secret-value-");
    // The stack keeps its frames: where it failed is what the line is for.
    expect(line!.error.stack).toMatch(/\n {4}at /);
  });

  it("for a database error whose message echoes a huge value", async () => {
    const error = await failure(db.execute(sql`select ${"x".repeat(2_000_000)}::integer`));
    const [line] = await linesOf(() => logError("unhandled error", error));
    expect(line!.error.causes.join("\n")).toContain("invalid input syntax for type integer");
    expect(JSON.stringify(line)).toContain("more characters]");
  });

  it("for the 500 answer of an unexpected error with a huge message", async () => {
    let status = 0;
    const [line] = await linesOf(() => {
      const where = { method: "POST", path: "/ext/svc/banks", requestId: "huge" };
      status = errorToResponse(new Error(`boom ${"é".repeat(1_000_000)}`), where).status;
    });
    expect(status).toBe(500);
    expect(line).toMatchObject({ level: "error", msg: "unhandled error", requestId: "huge" });
    expect(line!.error.message).toMatch(/^boom é+…\[\d+ more characters\]$/);
  });

  it("for huge fields, a huge message and long lists passed to the logger directly", async () => {
    const [line] = await linesOf(() =>
      logger.warn(
        {
          detail: "d".repeat(1_000_000),
          nested: { deeper: { text: "n".repeat(100_000) } },
          list: Array.from({ length: 100_000 }, (_, i) => i),
        },
        `message ${"m".repeat(1_000_000)}`,
      ),
    );
    expect(line).toMatchObject({ level: "warn" });
    expect(line!.msg).toMatch(/^message m+…\[\d+ more characters\]$/);
    expect(typeof line!.time).toBe("string");
  });

  it("for a line of many small fields, cut to its level, time and message", async () => {
    const fields = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`field_${i}`, i]));
    const [line] = await linesOf(() => logger.warn(fields, "many fields"));
    expect(line).toMatchObject({ level: "warn", msg: "many fields" });
    expect(line!.log_line_cut).toMatch(/^\d+ bytes$/);
  });

  it("leaves lines within the bound as they are", async () => {
    const [line] = await linesOf(() => logger.warn({ detail: "d".repeat(10_000) }, "fits"));
    expect(line).toMatchObject({ level: "warn", msg: "fits", detail: "d".repeat(10_000) });
  });
});
