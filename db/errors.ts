/** SQLSTATE of the error or of one it wraps (drizzle wraps driver errors in `cause`). */
export function sqlState(error: unknown): string | null {
  for (let e = error, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return null;
}

export const isUniqueViolation = (error: unknown) => sqlState(error) === "23505";
export const isForeignKeyViolation = (error: unknown) => sqlState(error) === "23503";
