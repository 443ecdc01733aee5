import { notFound } from "@/lib/contracts/errors";
import type { OwnerScope, ScopeKind } from "@/lib/contracts/scope";
import type { Actor, AppContext } from "@/lib/services/context";
import { findSourceWithToken } from "./sources";

/**
 * The source a caller installs or browses from (CONTRACT §7 install). With `sourceScope`
 * that scope's source; otherwise under /me the caller's personal source, then a server
 * source of that name; under /admin a server source. 404 when there is none. `actor` is the
 * caller: only whose personal sources count is read.
 */
export async function findUsableSource(
  app: AppContext,
  kind: ScopeKind,
  actor: Pick<Actor, "userId">,
  name: string,
  sourceScope?: ScopeKind,
) {
  const personal: OwnerScope = { kind: "personal", owner: actor.userId };
  const server: OwnerScope = { kind: "server", owner: null };
  const candidates = sourceScope ? [sourceScope === "personal" ? personal : server] : kind === "personal" ? [personal, server] : [server];
  for (const scope of candidates) {
    const found = await findSourceWithToken(app.db, app.secretKey, scope, name);
    if (found) return found;
  }
  throw notFound(`No template source named ${name} is available to you.`);
}
