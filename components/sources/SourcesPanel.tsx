"use client";
import { Button, Group, Stack } from "@mantine/core";
import { IconPlus } from "@tabler/icons-react";
import { useState } from "react";
import type { z } from "zod";
import { ConfirmModal } from "@/components/console/ConfirmModal";
import { EmptyList, ErrorState, LoadingState } from "@/components/console/states";
import { useRemoveSource, useSources } from "@/lib/client/hooks/sources";
import type { ScopeKind } from "@/lib/identity/scope";
import type { Source } from "@/lib/sources/schemas";
import { AddSourceModal } from "./AddSourceModal";
import { SourcesTable } from "./SourcesTable";

const WORDS = {
  personal: { noun: "personal sources", caption: "Your personal sources, by name", empty: "Add a marketplace to browse and install its templates. Only you see your personal sources." },
  server: { noun: "server sources", caption: "Server sources, by name", empty: "Server sources are shared with every user of this server." },
} as const;

/** List, add and remove the template sources of one scope. */
export function SourcesPanel({ scope }: { scope: ScopeKind }) {
  const sources = useSources(scope);
  const remove = useRemoveSource(scope);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<z.output<typeof Source> | null>(null);
  const words = WORDS[scope];
  const addButton = (
    <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setAdding(true)}>
      Add source
    </Button>
  );

  return (
    <Stack>
      <Group justify="flex-end">{addButton}</Group>
      {sources.isPending ? (
        <LoadingState label={`Loading ${words.noun}…`} />
      ) : sources.isError ? (
        <ErrorState title={`Could not load ${words.noun}`} error={sources.error} onRetry={() => sources.refetch()} />
      ) : sources.data.length === 0 ? (
        <EmptyList title={`No ${words.noun} yet`} description={words.empty} />
      ) : (
        <SourcesTable sources={sources.data} onRemove={setRemoving} caption={words.caption} />
      )}
      <AddSourceModal scope={scope} opened={adding} onClose={() => setAdding(false)} />
      <ConfirmModal
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        title="Remove source?"
        confirmLabel="Remove source"
        onConfirm={() => remove.mutateAsync({ params: { name: removing!.name } })}
      >
        Remove <strong>{removing?.name}</strong> ({removing?.url})? Templates already installed from it stay installed, but
        can no longer be updated from it.
      </ConfirmModal>
    </Stack>
  );
}
