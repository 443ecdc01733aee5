import { type Actor, type AppContext, type Audit, callContext, type ServiceContext, silentAudit } from "@/lib/services/context";

/**
 * A ServiceContext for calling a service directly, as a request would give it: `actor` does it,
 * no audit entry is written (unless `audit` is given), and the signal never fires.
 */
export function serviceContext(app: AppContext, actor: Actor, audit: Audit = silentAudit): ServiceContext {
  return callContext(app, { actor, requestId: "test", signal: new AbortController().signal, audit });
}
