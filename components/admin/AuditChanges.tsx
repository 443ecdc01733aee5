"use client";
import { Text } from "@mantine/core";
import { Suspense } from "react";
import { LoadingState } from "@/components/console/states";
import { formatJson } from "@/components/templates/json-text";
import { LazyManifestDiff } from "@/components/templates/LazyManifestDiff";

/** A snapshot as the diff shows it: formatted JSON, nothing at all for none (a creation's before, a deletion's after). */
const asText = (value: unknown) => (value === null || value === undefined ? "" : formatJson(value));

/** An audit entry's resource before and after the write, compared line by line. */
export function AuditChanges({ before, after }: { before: unknown; after: unknown }) {
  const [old, now] = [asText(before), asText(after)];
  if (old === now) {
    return (
      <Text size="sm" c="dimmed" data-testid="audit-no-change">
        The write left the resource as it was.
      </Text>
    );
  }
  return (
    <Suspense fallback={<LoadingState label="Loading the changes…" />}>
      <LazyManifestDiff
        before={old}
        after={now}
        beforeLabel={before === null ? "before (none: created)" : "before"}
        afterLabel={after === null ? "after (none: deleted)" : "after"}
      />
    </Suspense>
  );
}
