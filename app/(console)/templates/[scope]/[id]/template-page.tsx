import { notFound } from "next/navigation";
import type { ReactElement } from "react";
import { ForbiddenPage } from "@/components/console/ForbiddenPage";
import { currentConsoleUser } from "@/lib/auth/console-user";
import type { ScopeKind } from "@/lib/contracts/scope";
import { scopeFrom } from "../../scope";

export type TemplatePageParams = { params: Promise<{ scope: string; id: string }> };

/**
 * The template a page under /templates/{scope}/{id} is about, with what the user may do with
 * it (`manage`, or `use`: a member at a server template), or the page to show instead: Next's
 * 404 for an unknown scope, the 403 page for a member at a server template's page that only
 * admins may see (all but the template's own page, which members may read).
 */
export async function templatePageTarget(
  params: TemplatePageParams["params"],
  { membersMayRead = false } = {},
): Promise<{ scope: ScopeKind; id: string; access: "manage" | "use"; denied?: undefined } | { denied: ReactElement }> {
  const [{ scope: rawScope, id }, user] = await Promise.all([params, currentConsoleUser()]);
  const scope = scopeFrom(rawScope);
  if (!scope) notFound();
  const access = scope === "server" && user?.role !== "admin" ? "use" : "manage";
  if (access === "use" && !membersMayRead) return { denied: <ForbiddenPage userId={user?.id ?? "unknown"} /> };
  return { scope, id: decodeURIComponent(id), access };
}

/** The id a template page's URL names, for its title. */
export const templateIdOf = async (params: TemplatePageParams["params"]) => decodeURIComponent((await params).id);
