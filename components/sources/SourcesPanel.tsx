"use client";
import { Button, Group, Stack } from "@mantine/core";
import { IconPlus } from "@tabler/icons-react";
import { useRef, useState } from "react";
import type { z } from "zod";
import { ListSearch, useListSearch } from "@/components/console/ListSearch";
import { lazyModal, lazySection } from "@/components/console/lazy";
import { QueryView } from "@/components/console/QueryView";
import { EmptyList, LoadingState } from "@/components/console/states";
import { useConfirm } from "@/components/console/useConfirm";
import { type CatalogCheck, type SourceData, useCatalogCheck, useRemoveSource, useSources } from "@/lib/client/hooks/sources";
import { matchesSearch } from "@/lib/client/search";
import type { ScopeKind } from "@/lib/contracts/scope";
import type { Source } from "@/lib/contracts/sources/schemas";

// The table (and Mantine's Table) loads beside the list it shows, not with the page: it is drawn only once the sources have arrived.
const SourcesTable = lazySection(() => import("./SourcesTable").then((m) => m.SourcesTable), <LoadingState label="Loading sources…" />);

const AddSourceModal = lazyModal(() => import("./AddSourceModal").then((m) => m.AddSourceModal));
const EditSourceModal = lazyModal(() => import("./EditSourceModal").then((m) => m.EditSourceModal));

const WORDS = {
  personal: {
    noun: "personal sources",
    caption: "Your personal sources, by name",
    empty: "Add a marketplace to browse and install its templates. Only you see your personal sources.",
  },
  server: {
    noun: "server sources",
    caption: "Server sources, by name",
    empty: "Server sources are shared with every user of this server.",
  },
} as const;

/**
 * List, add, edit and remove the template sources of one scope. Right after a source was added
 * or changed its catalog is fetched once, and its row says what came of it: how many templates
 * were found, or why the catalog could not be read (the source stays saved either way; Edit
 * fixes it).
 */
export function SourcesPanel({ scope }: { scope: ScopeKind }) {
  const sources = useSources(scope);
  const remove = useRemoveSource(scope);
  const [search, setSearch] = useListSearch();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<SourceData | null>(null);
  const checks = useCatalogChecks(scope);
  const words = WORDS[scope];
  const confirmRemove = useConfirm<z.output<typeof Source>>({
    title: "Remove source?",
    confirmLabel: "Remove source",
    message: (source) => (
      <>
        Remove <strong>{source.name}</strong> ({source.url})? Templates already installed from it stay installed, but can no longer be
        updated from it.
      </>
    ),
    onConfirm: (source) => remove.mutateAsync({ params: { name: source.name } }),
  });

  return (
    <Stack>
      <Group justify="flex-end">
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setAdding(true)}>
          Add source
        </Button>
      </Group>
      <QueryView
        query={sources}
        loading={`Loading ${words.noun}…`}
        errorTitle={`Could not load ${words.noun}`}
        isEmpty={(list) => list.length === 0}
        empty={{ title: `No ${words.noun} yet`, description: words.empty }}
      >
        {(list) => {
          const shown = list.filter((source) => matchesSearch(search, source.name, source.url));
          return (
            <>
              <ListSearch label={words.noun} placeholder="Name or URL" value={search} onChange={setSearch} />
              {shown.length === 0 ? (
                <EmptyList title="No sources match" description="Try other words, or clear the search." />
              ) : (
                <SourcesTable
                  sources={shown}
                  checks={checks.results}
                  onEdit={setEditing}
                  onRemove={confirmRemove.ask}
                  caption={search ? `${words.caption} (${shown.length} of ${list.length})` : words.caption}
                />
              )}
            </>
          );
        }}
      </QueryView>
      <AddSourceModal scope={scope} opened={adding} onClose={() => setAdding(false)} onAdded={checks.run} />
      <EditSourceModal scope={scope} opened={editing !== null} source={editing} onClose={() => setEditing(null)} onSaved={checks.run} />
      {confirmRemove.modal}
    </Stack>
  );
}

/**
 * The catalog checks run after adding or editing sources, by source name: null while one runs.
 * A check started later for the same source replaces an earlier one that is still running.
 */
function useCatalogChecks(scope: ScopeKind) {
  const checkCatalog = useCatalogCheck(scope);
  const [results, setResults] = useState<ReadonlyMap<string, CatalogCheck | null>>(new Map());
  const latest = useRef(new Map<string, number>());
  const run = async (source: SourceData) => {
    const attempt = (latest.current.get(source.name) ?? 0) + 1;
    latest.current.set(source.name, attempt);
    setResults((checks) => new Map(checks).set(source.name, null));
    const result = await checkCatalog(source.name);
    if (latest.current.get(source.name) === attempt) setResults((checks) => new Map(checks).set(source.name, result));
  };
  return { results, run };
}
