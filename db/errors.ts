import "server-only";
import { causeCodes } from "@/lib/shared/cause-chain";

/** SQLSTATE of the error or of one it wraps (drizzle wraps driver errors in `cause`). */
function sqlState(error: unknown): string | null {
  return causeCodes(error).find((code) => /^[0-9A-Z]{5}$/.test(code)) ?? null;
}

export const isUniqueViolation = (error: unknown) => sqlState(error) === "23505";
export const isForeignKeyViolation = (error: unknown) => sqlState(error) === "23503";
