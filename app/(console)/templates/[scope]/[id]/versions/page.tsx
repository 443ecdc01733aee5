import type { Metadata } from "next";
import { VersionsPage } from "@/components/templates/versions/VersionsPage";
import { type TemplatePageParams, templateIdOf, templatePageTarget } from "../template-page";

export async function generateMetadata({ params }: TemplatePageParams): Promise<Metadata> {
  return { title: `Versions of ${await templateIdOf(params)}` };
}

// A template's recorded versions: compare them, look at one, roll back to one.
export default async function Page({ params }: TemplatePageParams) {
  const target = await templatePageTarget(params);
  if (target.denied) return target.denied;
  return <VersionsPage key={`${target.scope}/${target.id}`} scope={target.scope} id={target.id} />;
}
