import type { ScopeKind } from "@/lib/contracts/scope";

// Console URLs of template pages. Detail pages carry the scope in the path, so a template id
// can be any valid id (even "new") without clashing with the other pages.

export const templatesPath = (scope: ScopeKind) => (scope === "server" ? "/templates?scope=server" : "/templates");
export const newTemplatePath = (scope: ScopeKind) => (scope === "server" ? "/templates/new?scope=server" : "/templates/new");
export const templatePath = (scope: ScopeKind, id: string) => `/templates/${scope}/${encodeURIComponent(id)}`;
export const templateUpdatePath = (scope: ScopeKind, id: string) => `${templatePath(scope, id)}/update`;
export const templateVersionsPath = (scope: ScopeKind, id: string) => `${templatePath(scope, id)}/versions`;
export const marketplacePath = (scope: ScopeKind) => (scope === "server" ? "/marketplace?into=server" : "/marketplace");

/** What a template's page says right after an update: the revision it now holds, and the one reviewed when the source had moved on since. */
export interface JustUpdated {
  revision: string;
  reviewed?: string;
}

/** A template's page right after an update to `revision`, reviewed at `reviewed`. */
export function updatedTemplatePath(scope: ScopeKind, id: string, revision: string, reviewed: string) {
  const query = new URLSearchParams({ updated: revision, ...(reviewed === revision ? {} : { reviewed }) });
  return `${templatePath(scope, id)}?${query}`;
}
