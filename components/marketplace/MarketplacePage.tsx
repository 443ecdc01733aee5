"use client";
import { Badge, Button, Group, Tabs, TextInput } from "@mantine/core";
import { IconServer, IconUser } from "@tabler/icons-react";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { PageHeader } from "@/components/console/PageHeader";
import { EmptyList, ErrorState, LoadingState } from "@/components/console/states";
import { marketplacePath } from "@/components/templates/paths";
import { ScopeSwitch } from "@/components/templates/ScopeSwitch";
import { useBrowsableSources } from "@/lib/client/hooks/catalog";
import type { ScopeKind } from "@/lib/identity/scope";
import { CatalogPanel } from "./CatalogPanel";

/** One source the user can browse: its name and scope. */
interface SourceTab {
  name: string;
  scope: ScopeKind;
}
const tabValue = (s: SourceTab) => `${s.scope}:${s.name}`;

/**
 * The marketplace: a tab per source the user can browse, each showing that source's catalog.
 * `into` is where installs go: the user's own templates, or (admins) the server's, which come
 * from server sources only.
 */
export function MarketplacePage({ into, isAdmin, initialSource }: { into: ScopeKind; isAdmin: boolean; initialSource?: string }) {
  const { personal, server: serverSources } = useBrowsableSources(isAdmin);
  // Members cannot list server sources, but may browse one they know the name of.
  const [named, setNamed] = useState<string[]>([]);

  const tabs: SourceTab[] = [
    ...(into === "personal" ? (personal.data ?? []).map((s) => ({ name: s.name, scope: "personal" as const })) : []),
    ...(serverSources?.data ?? []).map((s) => ({ name: s.name, scope: "server" as const })),
    ...named.map((name) => ({ name, scope: "server" as const })),
  ];
  const [picked, setPicked] = useState<string | null>(initialSource ?? null);
  const active = tabs.find((t) => tabValue(t) === picked) ?? tabs[0];

  const loading = (into === "personal" && personal.isPending) || (serverSources?.isPending ?? false);
  const failed = into === "personal" && personal.isError ? personal : serverSources?.isError ? serverSources : null;

  return (
    <>
      <PageHeader
        title="Marketplace"
        description={
          into === "server"
            ? "Catalogs of the server sources. Templates you install here become server templates, usable by everyone."
            : "Browse the catalogs of your sources and install their templates."
        }
        actions={
          <Button component={Link} href="/sources" variant="default">
            Manage sources
          </Button>
        }
      />
      {isAdmin && <ScopeSwitch scope={into} href={marketplacePath} label="Install into" />}
      {loading ? (
        <LoadingState label="Loading sources…" />
      ) : failed ? (
        <ErrorState title="Could not load your sources" error={failed.error} onRetry={() => failed.refetch()} />
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
        <>
          <Tabs value={tabValue(active)} onChange={setPicked} keepMounted={false} aria-label="Sources">
            <Tabs.List mb="md">
              {tabs.map((t) => (
                <Tabs.Tab
                  key={tabValue(t)}
                  value={tabValue(t)}
                  leftSection={t.scope === "server" ? <IconServer size={16} aria-hidden /> : <IconUser size={16} aria-hidden />}
                  rightSection={
                    t.scope === "server" && into === "personal" ? (
                      <Badge size="xs" variant="light" color="grape">
                        server
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
        </>
      )}
      {!isAdmin && !loading && !failed && (
        <ServerSourceByName
          onOpen={(name) => {
            if (!named.includes(name)) setNamed([...named, name]);
            setPicked(tabValue({ name, scope: "server" }));
          }}
        />
      )}
    </>
  );
}

/** Members: open a server source's catalog by its name (there is no list of them for members). */
function ServerSourceByName({ onOpen }: { onOpen: (name: string) => void }) {
  const [name, setName] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim()) onOpen(name.trim());
    setName("");
  };
  return (
    <form onSubmit={submit} aria-label="Browse a server source">
      <Group mt="xl" gap="xs" align="flex-end">
        <TextInput
          label="Browse a server source"
          description="Server sources are shared by the administrators; open one by its name."
          placeholder="company"
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          w={280}
        />
        <Button type="submit" variant="default" disabled={!name.trim()}>
          Open
        </Button>
      </Group>
    </form>
  );
}
