import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ForbiddenPage } from "@/components/console/ForbiddenPage";
import { UpdateReviewPage } from "@/components/templates/UpdateReviewPage";
import { currentConsoleUser } from "@/lib/auth/console-user";
import { scopeFrom } from "../../../scope";

type Params = { params: Promise<{ scope: string; id: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  return { title: `Update ${decodeURIComponent((await params).id)}` };
}

// Review what an update from the source would change, then update.
export default async function Page({ params }: Params) {
  const [{ scope: rawScope, id }, user] = await Promise.all([params, currentConsoleUser()]);
  const scope = scopeFrom(rawScope);
  if (!scope) notFound();
  if (scope === "server" && user?.role !== "admin") return <ForbiddenPage userId={user?.id ?? "unknown"} />;
  const templateId = decodeURIComponent(id);
  return <UpdateReviewPage key={`${scope}/${templateId}`} scope={scope} id={templateId} />;
}
