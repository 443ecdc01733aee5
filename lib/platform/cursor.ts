import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { invalidField } from "@/lib/contracts/errors";

/**
 * Opaque paging cursors: the last key of a page plus an HMAC, so a cursor the server did
 * not issue (or one issued for other filters) is refused with 422 instead of paging wrongly.
 */
function sign(key: Buffer, payload: string): string {
  return createHmac("sha256", key).update(`cursor\0${payload}`).digest("base64url").slice(0, 22);
}

export function encodeCursor(key: Buffer, after: string, context: string): string {
  const payload = Buffer.from(JSON.stringify({ after, context })).toString("base64url");
  return `${payload}.${sign(key, payload)}`;
}

/** The key to continue after; 422 at `cursor` for anything not issued for this context. */
export function decodeCursor(key: Buffer, cursor: string, context: string): string {
  const refuse = () => invalidField("cursor", "is not a cursor this server issued for this list");
  const [payload, mac] = cursor.split(".");
  if (!payload || !mac) throw refuse();
  const expected = Buffer.from(sign(key, payload));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw refuse();
  const decoded = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { after?: unknown; context?: unknown };
  if (typeof decoded.after !== "string" || decoded.context !== context) throw refuse();
  return decoded.after;
}
