import type { Metadata } from "next";
import { MarketplacePage } from "@/components/marketplace/MarketplacePage";
import { currentConsoleUser } from "@/lib/auth/console-user";

export const metadata: Metadata = { title: "Marketplace" };

// ?into=server (admins): install as server templates, from server sources.
// ?source=personal:acme, server:company or all ("All sources", with two sources or more) picks the first tab shown.
export default async function Page({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const [user, query] = await Promise.all([currentConsoleUser(), searchParams]);
  const isAdmin = user?.role === "admin";
  const into = isAdmin && query.into === "server" ? "server" : "personal";
  const source = typeof query.source === "string" ? query.source : undefined;
  return <MarketplacePage key={into} into={into} isAdmin={isAdmin} initialSource={source} />;
}
