import { notFound } from "@/lib/contracts/errors";
import type { OwnerScope, ScopeKind } from "@/lib/contracts/scope";
import type { ServiceContext } from "@/lib/services/context";
import { findSourceWithToken } from "./sources";

/**
 * The source a caller installs or browses from (CONTRACT §7 install). With `sourceScope`
 * that scope's source; otherwise under /me the caller's personal source, then a server
 * source of that name; under /admin a server source. 404 when there is none. Only the personal
 * sources of the caller (`ctx.actor`) count.
 */
export async function findUsableSource(ctx: ServiceContext, kind: ScopeKind, name: string, sourceScope?: ScopeKind) {
  const personal: OwnerScope = { kind: "personal", owner: ctx.actor.userId };
  const server: OwnerScope = { kind: "server", owner: null };
  const candidates = sourceScope ? [sourceScope === "personal" ? personal : server] : kind === "personal" ? [personal, server] : [server];
  for (const scope of candidates) {
    const found = await findSourceWithToken(ctx.db, ctx.app.secretKey, scope, name);
    if (found) return found;
  }
  throw notFound(`No template source named ${name} is available to you.`);
}
