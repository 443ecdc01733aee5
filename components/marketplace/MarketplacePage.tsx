"use client";
import { Badge, Button, Tabs } from "@mantine/core";
import { IconBooks, IconServer, IconUser } from "@tabler/icons-react";
import Link from "next/link";
import { parseAsString, useQueryState, useQueryStates } from "nuqs";
import { lazySection } from "@/components/console/lazy";
import { PageHeader } from "@/components/console/PageHeader";
import { EmptyList, ErrorState, LoadingState } from "@/components/console/states";
import { withUrlState } from "@/components/console/url-state";
import { marketplacePath } from "@/components/templates/paths";
import { ScopeSwitch } from "@/components/templates/ScopeSwitch";
import { sourceKey, useAvailableSources } from "@/lib/client/hooks/sources";
import type { ScopeKind } from "@/lib/contracts/scope";
import { catalogFilterParams, catalogFilterUrlKeys } from "./catalog-search";

// Catalogs (filters, cards, install and preview) show once the sources arrived; their code
// loads alongside them.
const CatalogPanel = lazySection(() => import("./CatalogPanel").then((m) => m.CatalogPanel), <LoadingState label="Loading the catalog…" />);
const AllSourcesPanel = lazySection(
  () => import("./AllSourcesPanel").then((m) => m.AllSourcesPanel),
  <LoadingState label="Loading the catalogs…" />,
);

/** The tab that searches every source at once; source tabs are `scope:name`, which never clashes with it. */
const ALL_SOURCES = "all";

/**
 * The marketplace: with two sources or more first an "All sources" tab searching every
 * catalog at once, then a tab per source the user can install from (their personal sources
 * and the server's, for members too), each showing that source's catalog. `into` is where
 * installs go: the user's own templates, or (admins) the server's, which come from server
 * sources only.
 */
function MarketplacePageView({ into, isAdmin }: { into: ScopeKind; isAdmin: boolean }) {
  const sources = useAvailableSources();
  const usable = (sources.data ?? []).filter((s) => into === "personal" || s.scope === "server");
  const tabs = [...(usable.length >= 2 ? [ALL_SOURCES] : []), ...usable.map(sourceKey)];
  // The tab is `?source=`: a reload shows the same catalog, and Back returns to the tab before.
  const [picked, setPicked] = useQueryState("source", parseAsString.withOptions({ history: "push" }));
  // Another source has other categories and integrations: its catalog starts unfiltered (in the same history entry).
  const [, setFilters] = useQueryStates(catalogFilterParams, { urlKeys: catalogFilterUrlKeys, history: "push" });
  const pickTab = (tab: string | null) => {
    void setPicked(tab);
    void setFilters(null);
  };
  const active = tabs.find((t) => t === picked) ?? tabs[0];

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
      ) : usable.length === 0 || !active ? (
        <EmptyList
          title={into === "server" ? "No server sources yet" : "No sources yet"}
          description={
            into === "server" ? "Add a server source to browse its catalog here." : "Add a marketplace source to browse its catalog here."
          }
          action={
            <Button component={Link} href={into === "server" ? "/admin/sources" : "/sources"} mt="md">
              Add a source
            </Button>
          }
        />
      ) : (
        <Tabs value={active} onChange={pickTab} keepMounted={false} aria-label="Sources">
          <Tabs.List mb="md">
            {usable.length >= 2 && (
              <Tabs.Tab value={ALL_SOURCES} leftSection={<IconBooks size={16} aria-hidden />}>
                All sources
              </Tabs.Tab>
            )}
            {usable.map((t) => (
              <Tabs.Tab
                key={sourceKey(t)}
                value={sourceKey(t)}
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
          {usable.length >= 2 && (
            <Tabs.Panel value={ALL_SOURCES}>
              <AllSourcesPanel into={into} sources={usable} />
            </Tabs.Panel>
          )}
          {usable.map((source) => (
            <Tabs.Panel key={sourceKey(source)} value={sourceKey(source)}>
              <CatalogPanel into={into} source={source} />
            </Tabs.Panel>
          ))}
        </Tabs>
      )}
    </>
  );
}

// Not shallow: the server part reads ?into= (see withUrlState).
export const MarketplacePage = withUrlState(MarketplacePageView, { serverReadsQuery: true });
