import "server-only";
import { hash, verify } from "@node-rs/argon2";

// Argon2id with the library's defaults (19 MiB, t=2), the OWASP baseline.
export const hashPassword = (password: string) => hash(password);

export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (!stored) return false;
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}
