import type { AuditAction } from "@/lib/contracts/audit-actions";

/**
 * The console page of an audited resource, from the entry's target (an /ext/svc path), or null
 * when the console has none. `/me/...` paths are the actor's own resources: the console shows
 * them only to that user, so they link only on the actor's own entries.
 */
export function consolePageOf(target: string, actorUserId: string, viewerId: string): string | null {
  const own = actorUserId === viewerId;
  const [, area, ...rest] = target.replace(/^\/ext\/svc/, "").split("/");
  const [collection, id] = area === "me" || area === "admin" ? rest : [area, ...rest];
  if (collection === "templates") {
    if (area === "admin") return id ? `/templates/server/${id}` : "/templates";
    if (area === "me" && own) return id ? `/templates/personal/${id}` : "/templates";
    return null;
  }
  if (collection === "banks" && id) return `/banks/${id}`;
  if (collection === "template-sources") return area === "admin" ? "/admin/sources" : own ? "/sources" : null;
  if (collection === "users") return "/admin/users";
  if (area === "me" && own) return "/account";
  return null;
}

/** What an entry's `target_type` names, as the page's filter and its rows say it. */
export const TARGET_TYPE_LABELS = {
  template: "Template",
  bank: "Bank",
  policy: "Bank policy",
  source: "Template source",
  user: "User",
  api_key: "API key",
  service_account: "Service account",
  session: "Console session",
  webhook: "Webhook",
} as const;

type TargetType = keyof typeof TARGET_TYPE_LABELS;

/**
 * An entry's target as people read it (`Template support`, `Bank policy of b1`), from its
 * target type and id; entries written before they were recorded fall back to the path.
 */
export function targetLabel(entry: { target: string; target_type: TargetType | null; target_id: string | null }): string {
  const { target_type: type, target_id: id } = entry;
  if (type === null || id === null) return entry.target;
  if (type === "template" && id === "*") return "Every template";
  if (type === "policy") return `Bank policy of ${id}`;
  // A console session's id is long and random: its start says which one.
  if (type === "session") return `Console session ${id.slice(0, 8)}…`;
  return `${TARGET_TYPE_LABELS[type]} ${id}`;
}

/**
 * Every action of the audit log in words, as the console shows it (the log's rows, its Action
 * filter, Home's latest entries): the codes stay in the API, the URL and the export.
 */
export const ACTION_LABELS: Record<AuditAction, string> = {
  "api_key.create": "API key created",
  "api_key.revoke": "API key revoked",
  "bank.delete": "Bank deleted",
  "bank.directive.delete": "Directive removed from a bank",
  "bank.directive.put": "Directive of a bank saved",
  "bank.import": "Template applied to a bank",
  "bank.mental_model.delete": "Mental model removed from a bank",
  "bank.mental_model.put": "Mental model of a bank saved",
  "bank.patch": "Bank edited",
  "bank.policy.delete": "Bank policy deleted",
  "bank.policy.put": "Bank policy saved",
  "bank.policy.restore": "Bank policy restored",
  "bank.restore": "Bank content restored",
  "service_account.create": "Service account created",
  "service_account.delete": "Service account deleted",
  "session.revoke": "Console session signed out",
  "template.check_updates": "Templates checked for updates",
  "template.create": "Template created",
  "template.delete": "Template deleted",
  "template.install": "Template installed",
  "template.patch": "Template edited",
  "template.rollback": "Template rolled back",
  "template.update": "Template updated from its source",
  "template.update_all": "Templates updated from their sources",
  "template_source.create": "Source added",
  "template_source.delete": "Source removed",
  "template_source.update": "Source edited",
  "user.create": "User created",
  "user.delete": "User deleted",
  "user.password.change": "Password changed",
  "user.sso.create": "User created at their first single sign-on",
  "user.sso.link": "Single-sign-on account linked",
  "user.sso.role": "Role set by the single-sign-on groups",
  "user.sso.unlink": "Single-sign-on account unlinked",
  "user.update": "User edited",
  "webhook.create": "Webhook added",
  "webhook.delete": "Webhook removed",
  "webhook.ping": "Webhook pinged",
  "webhook.redeliver": "Webhook delivery sent again",
  "webhook.rotate_secret": "Webhook secret rotated",
  "webhook.update": "Webhook edited",
  "session.sign-in": "Signed in to the console",
  "session.sign-out": "Signed out of the console",
};

/** An entry's action in words; an action this console does not know (a newer server's) as its code. */
export const actionLabel = (action: string): string =>
  Object.hasOwn(ACTION_LABELS, action) ? ACTION_LABELS[action as AuditAction] : action;

/**
 * An entry in a line, as Home lists the latest: what was done and to which one ("Template
 * edited: support"; the action names the kind, the id which one, a key's by its start); a
 * sign-in or a change of every template needs no name.
 */
export function auditSummary(entry: { action: string; target: string; target_type: TargetType | null; target_id: string | null }): string {
  const what = actionLabel(entry.action);
  const { target_type: type, target_id: id } = entry;
  if (type === null || id === null) return `${what}: ${entry.target}`;
  if (type === "session" || id === "*") return what;
  if (type === "api_key") return `${what}: ${id.slice(0, 8)}…`;
  return `${what}: ${type === "policy" ? `bank ${id}` : id}`;
}
