"use client";
import { Button, Group, Stack } from "@mantine/core";
import type { ReactNode } from "react";
import { ManifestDiff } from "@/components/templates/ManifestDiff";

/** An edit of a bank shown before it is saved: what it does, in words, and the part as a diff of now and after. */
export function EditPreview({
  intro,
  before,
  after,
  beforeLabel = "Now",
  afterLabel = "After saving",
  onBack,
}: {
  intro: ReactNode;
  before: string;
  after: string;
  beforeLabel?: string;
  afterLabel?: string;
  /** Back to the form, its text kept; none for an edit without a form (a removal). */
  onBack?: () => void;
}) {
  return (
    <Stack gap="sm" data-testid="bank-edit-preview">
      {intro}
      <ManifestDiff before={before} after={after} beforeLabel={beforeLabel} afterLabel={afterLabel} />
      {onBack && (
        <Group>
          <Button variant="default" size="xs" onClick={onBack}>
            Back to editing
          </Button>
        </Group>
      )}
    </Stack>
  );
}
