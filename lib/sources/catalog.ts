import { and, eq } from "drizzle-orm";
import { templates } from "@/db/schema";
import type { Principal } from "@/lib/identity/principal";
import { scopeOf, type ScopeKind } from "@/lib/identity/scope";
import { loadCatalog } from "@/lib/marketplace";
import type { AppContext } from "@/lib/server/app";
import { templatesIn } from "@/lib/templates/templates";
import { entryContent, marketplaceDeps } from "@/lib/templates/upstream";
import { findUsableSource } from "./lookup";
import { presentSource } from "./sources";

/**
 * A source's catalog, to see templates before installing them (CONTRACT §5), in the
 * marketplace's own order, each marked with the ids it is already installed under.
 */
export async function browseCatalog(app: AppContext, kind: ScopeKind, principal: Principal, name: string, sourceScope?: ScopeKind) {
  const source = await findUsableSource(app, kind, principal, name, sourceScope);
  const catalog = await loadCatalog(marketplaceDeps(app), { url: source.row.url, authToken: source.authToken }, "cached");
  const installed = await app.db
    .select({ id: templates.id, sourceTemplateId: templates.sourceTemplateId })
    .from(templates)
    .where(
      and(
        templatesIn(scopeOf(kind, principal)),
        eq(templates.sourceName, source.row.name),
        eq(templates.sourceScope, source.row.scope),
      ),
    );
  return {
    source: presentSource(source.row),
    templates: catalog.templates.map((entry) => ({
      id: entry.id,
      ...entryContent(entry),
      revision: entry.revision,
      installed_as: installed.filter((row) => row.sourceTemplateId === entry.id).map((row) => row.id).sort(),
    })),
  };
}
