import "server-only";
import { hkdfSync } from "node:crypto";

const derived = new WeakMap<Buffer, string>();

/**
 * The secret next-auth signs and encrypts session JWTs with, derived from SECRET_KEY by
 * HKDF-SHA256 with its own label: no second secret to configure or store, every process
 * sharing SECRET_KEY accepts the same sessions, and the derived key reveals nothing about
 * the key that encrypts source tokens. Rotating SECRET_KEY signs everybody out.
 */
export function nextAuthSecret(secretKey: Buffer): string {
  let secret = derived.get(secretKey);
  if (!secret) {
    secret = Buffer.from(hkdfSync("sha256", secretKey, "bank-templates-console", "nextauth", 32)).toString("base64url");
    derived.set(secretKey, secret);
  }
  return secret;
}
