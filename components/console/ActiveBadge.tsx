"use client";
import { Badge } from "@mantine/core";

/** Whether a user or a bank's directive is active, as a badge. */
export function ActiveBadge({ active }: { active: boolean }) {
  return active ? (
    <Badge color="green" variant="light">
      active
    </Badge>
  ) : (
    <Badge color="gray">inactive</Badge>
  );
}
