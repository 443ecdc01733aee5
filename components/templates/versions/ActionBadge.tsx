"use client";
import { Badge } from "@mantine/core";
import type { VersionSummaryData } from "@/lib/client/hooks/versions";

type Action = VersionSummaryData["action"];

/** What wrote a version, in plain words. (A rollback's answer does not say which version it restored.) */
export const ACTION_LABELS: Record<Action, string> = {
  create: "Created",
  install: "Installed",
  patch: "Edited",
  update: "Updated from source",
  rollback: "Rolled back",
};

const ACTION_COLORS: Record<Action, string> = {
  create: "gray",
  install: "blue",
  patch: "yellow",
  update: "teal",
  rollback: "grape",
};

export function ActionBadge({ action }: { action: Action }) {
  return (
    <Badge color={ACTION_COLORS[action]} variant="light" tt="none" style={{ minWidth: "max-content" }}>
      {ACTION_LABELS[action]}
    </Badge>
  );
}
