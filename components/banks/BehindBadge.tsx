"use client";
import { Badge } from "@mantine/core";
import { behindColor, isRollback, type NewestVersion, ROLLBACK_BADGE } from "./newest-version";

/** A list's small mark of a bank behind its template: "Behind", or "Behind: rollback" when rolling out would take it back. */
export function BehindBadge({ newest }: { newest: NewestVersion | null }) {
  return (
    <Badge color={behindColor(newest)} variant="light" size="sm" data-testid="bank-behind">
      {isRollback(newest) ? ROLLBACK_BADGE : "Behind"}
    </Badge>
  );
}
