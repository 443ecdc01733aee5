import type { Metadata } from "next";
import { TemplateDetailPage } from "@/components/templates/TemplateDetailPage";
import { type TemplatePageParams, templateIdOf, templatePageTarget } from "./template-page";

export async function generateMetadata({ params }: TemplatePageParams): Promise<Metadata> {
  return { title: `Template ${await templateIdOf(params)}` };
}

// /templates/personal/{id}: the user's template; /templates/server/{id}: a server template
// (admins manage it; members read it and create banks from it).
export default async function Page({
  params,
  searchParams,
}: TemplatePageParams & { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const [target, query] = await Promise.all([templatePageTarget(params, { membersMayRead: true }), searchParams]);
  if (target.denied) return target.denied;
  const updated = typeof query.updated === "string" ? query.updated : undefined;
  const reviewed = typeof query.reviewed === "string" ? query.reviewed : undefined;
  return (
    <TemplateDetailPage
      key={`${target.scope}/${target.id}`}
      scope={target.scope}
      id={target.id}
      updated={updated === undefined ? undefined : { revision: updated, reviewed }}
      access={target.access}
    />
  );
}
