import type { ScopeKind } from "@/lib/contracts/scope";

/** The template scope a URL names: `server` (admins only) or `personal`; anything else is none. */
export function scopeFrom(value: unknown): ScopeKind | null {
  return value === "server" || value === "personal" ? value : null;
}
