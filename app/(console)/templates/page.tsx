import type { Metadata } from "next";
import { ForbiddenPage } from "@/components/console/ForbiddenPage";
import { TemplatesPage } from "@/components/templates/TemplatesPage";
import { currentConsoleUser } from "@/lib/auth/console-user";

export const metadata: Metadata = { title: "Templates" };

// ?scope=server: the server's templates (admins only).
export default async function Page({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const [user, query] = await Promise.all([currentConsoleUser(), searchParams]);
  const isAdmin = user?.role === "admin";
  const scope = query.scope === "server" ? "server" : "personal";
  if (scope === "server" && !isAdmin) return <ForbiddenPage userId={user?.id ?? "unknown"} />;
  return <TemplatesPage key={scope} scope={scope} isAdmin={isAdmin} />;
}
