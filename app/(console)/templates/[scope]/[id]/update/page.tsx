import type { Metadata } from "next";
import { UpdateReviewPage } from "@/components/templates/UpdateReviewPage";
import { type TemplatePageParams, templateIdOf, templatePageTarget } from "../template-page";

export async function generateMetadata({ params }: TemplatePageParams): Promise<Metadata> {
  return { title: `Update ${await templateIdOf(params)}` };
}

// Review what an update from the source would change, then update.
export default async function Page({ params }: TemplatePageParams) {
  const target = await templatePageTarget(params);
  if (target.denied) return target.denied;
  return <UpdateReviewPage key={`${target.scope}/${target.id}`} scope={target.scope} id={target.id} />;
}
