import type { Metadata } from "next";
import { MarketplacePage } from "@/components/marketplace/MarketplacePage";
import { currentConsoleUser } from "@/lib/auth/console-user";

export const metadata: Metadata = { title: "Marketplace" };

// ?into=server (admins): install as server templates, from server sources.
// ?source=personal:acme, server:company or all ("All sources", with two sources or more) is the tab shown, and
// ?q, ?category, ?integration and ?tag the catalog's search and filters: MarketplacePage reads them from the URL.
export default async function Page({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const [user, query] = await Promise.all([currentConsoleUser(), searchParams]);
  const isAdmin = user?.role === "admin";
  const into = isAdmin && query.into === "server" ? "server" : "personal";
  return <MarketplacePage key={into} into={into} isAdmin={isAdmin} />;
}
