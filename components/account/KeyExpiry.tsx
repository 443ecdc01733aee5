"use client";
import { Badge, Group, Text } from "@mantine/core";
import { formatTimestamp } from "@/lib/client/format";
import { plural } from "@/lib/shared/plural";

const DAY_MS = 24 * 3600 * 1000;
/** How early a key's coming expiry is called out, so its users have time to replace it (here and on the home page). */
export const KEY_EXPIRY_WARN_DAYS = 7;

/** A key's expiry: the date (or "never"), yellow "expires in N days" within a week, red "expired" after. */
export function KeyExpiry({ expiresAt, now = Date.now() }: { expiresAt: string | null; now?: number }) {
  if (expiresAt === null) return <Text size="sm">never</Text>;
  const left = new Date(expiresAt).getTime() - now;
  const daysLeft = Math.ceil(left / DAY_MS);
  return (
    <Group gap={6}>
      <Text size="sm">{formatTimestamp(expiresAt)}</Text>
      {left <= 0 ? (
        <Badge color="red" variant="light" size="sm" tt="none">
          expired
        </Badge>
      ) : daysLeft <= KEY_EXPIRY_WARN_DAYS ? (
        <Badge color="yellow" variant="light" size="sm" tt="none">
          expires in {plural(daysLeft, "day")}
        </Badge>
      ) : null}
    </Group>
  );
}
