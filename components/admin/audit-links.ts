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
