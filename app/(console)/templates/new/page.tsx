import type { Metadata } from "next";
import { ForbiddenPage } from "@/components/console/ForbiddenPage";
import { NewTemplatePage } from "@/components/templates/NewTemplatePage";
import { currentConsoleUser } from "@/lib/auth/console-user";

export const metadata: Metadata = { title: "New template" };

export default async function Page({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const [user, query] = await Promise.all([currentConsoleUser(), searchParams]);
  const scope = query.scope === "server" ? "server" : "personal";
  if (scope === "server" && user?.role !== "admin") return <ForbiddenPage userId={user?.id ?? "unknown"} />;
  return <NewTemplatePage key={scope} scope={scope} />;
}
