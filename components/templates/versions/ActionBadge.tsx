"use client";
import { Badge } from "@mantine/core";
import type { VersionSummaryData } from "@/lib/client/hooks/versions";

type Action = VersionSummaryData["action"];

/** What wrote a version, in plain words. */
const ACTION_LABELS: Record<Action, string> = {
  create: "Created",
  install: "Installed",
  patch: "Edited",
  update: "Updated from source",
  merge: "Merged with source",
  rollback: "Rolled back",
};

const ACTION_COLORS: Record<Action, string> = {
  create: "gray",
  install: "blue",
  patch: "yellow",
  update: "teal",
  merge: "cyan",
  rollback: "grape",
};

type VersionAction = Pick<VersionSummaryData, "action" | "restored_version">;

/** What wrote a version; a rollback says which version it restored (those recorded before it was kept cannot). */
export const versionActionLabel = (v: VersionAction) =>
  v.action === "rollback" && v.restored_version !== null ? `Restored version ${v.restored_version}` : ACTION_LABELS[v.action];

export function ActionBadge({ version }: { version: VersionAction }) {
  return (
    <Badge color={ACTION_COLORS[version.action]} variant="light" tt="none">
      {versionActionLabel(version)}
    </Badge>
  );
}
