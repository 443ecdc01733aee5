"use client";
import { Group, SegmentedControl, Text } from "@mantine/core";
import { useRouter } from "next/navigation";
import { useId } from "react";
import type { ScopeKind } from "@/lib/contracts/scope";

/** For admins: which templates a page works on, the admin's own or the server's. Navigates to `href(scope)`. */
export function ScopeSwitch({
  scope,
  href,
  label = "Templates",
}: {
  scope: ScopeKind;
  href: (scope: ScopeKind) => string;
  label?: string;
}) {
  const router = useRouter();
  const id = useId();
  return (
    <Group gap="sm" mb="md">
      <Text size="sm" fw={500} id={id}>
        {label}
      </Text>
      <SegmentedControl
        aria-labelledby={id}
        value={scope}
        onChange={(value) => router.push(href(value as ScopeKind))}
        data={[
          { value: "personal", label: "Personal" },
          { value: "server", label: "Server" },
        ]}
      />
    </Group>
  );
}
