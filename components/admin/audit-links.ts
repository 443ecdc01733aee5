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
