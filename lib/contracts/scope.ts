/**
 * Whose rows an operation touches: the caller's personal rows, or the server's.
 * `/me/...` and `/admin/...` paths run the same code with a different scope.
 */
export type ScopeKind = "personal" | "server";
export type OwnerScope = { kind: "personal"; owner: string } | { kind: "server"; owner: null };

/** The scope of `kind` for a caller (an actor, or anyone acting for a user). */
export function scopeOf(kind: ScopeKind, actor: { userId: string }): OwnerScope {
  return kind === "personal" ? { kind, owner: actor.userId } : { kind, owner: null };
}

/** The path prefix of a scope's endpoints. */
export const scopePrefix = (kind: ScopeKind) => (kind === "personal" ? "/ext/svc/me" : "/ext/svc/admin");
