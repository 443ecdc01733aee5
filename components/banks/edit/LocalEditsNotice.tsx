"use client";
import { Alert, Button, Collapse, Stack, Text } from "@mantine/core";
import { IconPencil } from "@tabler/icons-react";
import { Suspense, useId, useState } from "react";
import type { z } from "zod";
import { LoadingState } from "@/components/console/states";
import { formatJson } from "@/components/templates/json-text";
import { LazyManifestDiff } from "@/components/templates/LazyManifestDiff";
import type { BankDetail } from "@/lib/contracts/banks/schemas";
import type { BankContent, LocalEdits } from "./local-edits";

/** The touched parts as one JSON document: only the parts that hold something. */
function contentText(content: BankContent): string {
  return formatJson({
    ...(Object.keys(content.config).length ? { bank: content.config } : {}),
    ...(content.mental_models.length ? { mental_models: content.mental_models } : {}),
    ...(content.directives.length ? { directives: content.directives } : {}),
  });
}

/**
 * A bank edited here since its template last wrote it (`locally_modified`): which version of
 * which template that was, and, on request, what the edits changed against what it wrote.
 */
export function LocalEditsNotice({ bank, edits }: { bank: z.output<typeof BankDetail>; edits: LocalEdits | null }) {
  const [open, setOpen] = useState(false);
  const diffId = useId();
  const applied = bank.last_applied;
  if (!bank.locally_modified || !applied) return null;
  const version = applied.template_version === null ? "the version" : `version ${applied.template_version}`;
  const wrote = `As ${version} of ${applied.template} wrote it`;
  // The edits since that apply explain none of what differs: it was kept by that apply's merge, or put
  // back by a restore, and neither entry says what it left different from the template's.
  const unexplained = edits !== null && Object.values(edits.changed).every((keys) => keys.size === 0);
  return (
    <Alert
      color="grape"
      variant="light"
      icon={<IconPencil aria-hidden />}
      title={`Changed here since ${version} of ${applied.template}`}
      data-testid="locally-modified"
    >
      <Stack gap="xs">
        <Text size="sm">
          This bank&apos;s content was edited here after that template last wrote it; the entries marked &quot;changed here&quot; differ
          from what it wrote.
        </Text>
        {unexplained ? (
          <Text size="sm" c="dimmed">
            What differs was kept by that apply&apos;s merge or put back by a restore, whose history entries do not say what they left
            different, so it cannot be shown here.
          </Text>
        ) : edits ? (
          <>
            <Button
              size="xs"
              variant="default"
              w="fit-content"
              aria-expanded={open}
              aria-controls={diffId}
              onClick={() => setOpen((o) => !o)}
            >
              {open ? "Hide what changed" : "Show what changed"}
            </Button>
            <Collapse expanded={open} id={diffId}>
              {open && (
                <Suspense fallback={<LoadingState label="Loading the diff…" />}>
                  <LazyManifestDiff
                    before={contentText(edits.applied)}
                    after={contentText(edits.now)}
                    beforeLabel={wrote}
                    afterLabel="This bank now"
                  />
                </Suspense>
              )}
            </Collapse>
          </>
        ) : (
          <Text size="sm" c="dimmed">
            The history does not hold the edits since that apply, so what changed cannot be shown here.
          </Text>
        )}
      </Stack>
    </Alert>
  );
}
