import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ForbiddenPage } from "@/components/console/ForbiddenPage";
import { TemplateDetailPage } from "@/components/templates/TemplateDetailPage";
import { currentConsoleUser } from "@/lib/auth/console-user";
import { scopeFrom } from "../../scope";

type Params = { params: Promise<{ scope: string; id: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  return { title: `Template ${decodeURIComponent((await params).id)}` };
}

// /templates/personal/{id}: the user's template; /templates/server/{id}: a server template (admins).
export default async function Page({ params, searchParams }: Params & { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const [{ scope: rawScope, id }, query, user] = await Promise.all([params, searchParams, currentConsoleUser()]);
  const scope = scopeFrom(rawScope);
  if (!scope) notFound();
  if (scope === "server" && user?.role !== "admin") return <ForbiddenPage userId={user?.id ?? "unknown"} />;
  const updated = typeof query.updated === "string" ? query.updated : undefined;
  const templateId = decodeURIComponent(id);
  return <TemplateDetailPage key={`${scope}/${templateId}`} scope={scope} id={templateId} updatedTo={updated} />;
}
