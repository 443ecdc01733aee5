"use client";
import { Badge, Button, Tabs } from "@mantine/core";
import { IconServer, IconUser } from "@tabler/icons-react";
import Link from "next/link";
import { useState } from "react";
import { lazySection } from "@/components/console/lazy";
import { PageHeader } from "@/components/console/PageHeader";
import { EmptyList, ErrorState, LoadingState } from "@/components/console/states";
import { marketplacePath } from "@/components/templates/paths";
import { ScopeSwitch } from "@/components/templates/ScopeSwitch";
import { useAvailableSources } from "@/lib/client/hooks/catalog";
import type { ScopeKind } from "@/lib/identity/scope";

// A catalog (filters, cards, install and preview) shows once the sources arrived; its code
// loads alongside them.
const CatalogPanel = lazySection(() => import("./CatalogPanel").then((m) => m.CatalogPanel), <LoadingState label="Loading the catalog…" />);

/** One source the user can browse: its name and scope. */
interface SourceTab {
  name: string;
  scope: ScopeKind;
}
const tabValue = (s: SourceTab) => `${s.scope}:${s.name}`;

/**
 * The marketplace: a tab per source the user can install from (their personal sources and
 * the server's, for members too), each showing that source's catalog. `into` is where
 * installs go: the user's own templates, or (admins) the server's, which come from server
 * sources only.
 */
export function MarketplacePage({ into, isAdmin, initialSource }: { into: ScopeKind; isAdmin: boolean; initialSource?: string }) {
  const sources = useAvailableSources();
  const tabs: SourceTab[] = (sources.data ?? [])
    .filter((s) => into === "personal" || s.scope === "server")
    .map((s) => ({ name: s.name, scope: s.scope }));
  const [picked, setPicked] = useState<string | null>(initialSource ?? null);
  const active = tabs.find((t) => tabValue(t) === picked) ?? tabs[0];

  return (
    <>
      <PageHeader
        title="Marketplace"
        description={
          into === "server"
            ? "Catalogs of the server sources. Templates you install here become server templates, usable by everyone."
            : "Browse the catalogs of your own sources and of the server's, and install their templates as yours."
        }
        actions={
          <Button component={Link} href="/sources" variant="default">
            Manage sources
          </Button>
        }
      />
      {isAdmin && <ScopeSwitch scope={into} href={marketplacePath} label="Install into" />}
      {sources.isPending ? (
        <LoadingState label="Loading sources…" />
      ) : sources.isError ? (
        <ErrorState title="Could not load your sources" error={sources.error} onRetry={() => sources.refetch()} />
      ) : tabs.length === 0 || !active ? (
        <EmptyList
          title={into === "server" ? "No server sources yet" : "No sources yet"}
          description={
            into === "server"
              ? "Add a server source to browse its catalog here."
              : "Add a marketplace source to browse its catalog here."
          }
          action={
            <Button component={Link} href={into === "server" ? "/admin/sources" : "/sources"} mt="md">
              Add a source
            </Button>
          }
        />
      ) : (
        <Tabs value={tabValue(active)} onChange={setPicked} keepMounted={false} aria-label="Sources">
          <Tabs.List mb="md">
            {tabs.map((t) => (
              <Tabs.Tab
                key={tabValue(t)}
                value={tabValue(t)}
                leftSection={t.scope === "server" ? <IconServer size={16} aria-hidden /> : <IconUser size={16} aria-hidden />}
                rightSection={
                  into === "personal" ? (
                    <Badge size="xs" variant="light" color={t.scope === "server" ? "grape" : "blue"}>
                      {t.scope === "server" ? "server" : "personal"}
                    </Badge>
                  ) : undefined
                }
              >
                {t.name}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {tabs.map((t) => (
            <Tabs.Panel key={tabValue(t)} value={tabValue(t)}>
              <CatalogPanel into={into} sourceName={t.name} sourceScope={t.scope} />
            </Tabs.Panel>
          ))}
        </Tabs>
      )}
    </>
  );
}
