import "server-only";
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

const VERSION = "v1";

/**
 * What a sealed secret is for, bound into its seal (the GCM associated data): a secret sealed as
 * one kind does not open as another, so a stored value copied into another column is useless there.
 */
export type SecretPurpose = "template-source-auth-token" | "webhook-secret";

/** AES-256-GCM: `v1.<iv>.<tag>.<ciphertext>`, each part base64url. */
export function encryptSecret(key: Buffer, plaintext: string, purpose: SecretPurpose = "template-source-auth-token"): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(purpose));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), ciphertext].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
}

export function decryptSecret(key: Buffer, sealed: string, purpose: SecretPurpose = "template-source-auth-token"): string {
  const [version, iv, tag, ciphertext] = sealed.split(".");
  if (version !== VERSION || !iv || !tag || ciphertext === undefined) throw new Error("Unrecognised sealed secret");
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  decipher.setAAD(Buffer.from(purpose));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
}
