import { notFound, redirect } from "next/navigation";
import { scopeFrom } from "../scope";

// /templates/personal and /templates/server have no page of their own: the list of that scope.
export default async function Page({ params }: { params: Promise<{ scope: string }> }) {
  const scope = scopeFrom((await params).scope);
  if (!scope) notFound();
  redirect(scope === "server" ? "/templates?scope=server" : "/templates");
}
