"use client";
import { Badge } from "@mantine/core";
import type { Role } from "@/lib/services/context";

/** A role as a badge; never shortened with an ellipsis, even in a narrow table column. */
export function RoleBadge({ role }: { role: Role }) {
  return (
    <Badge variant={role === "admin" ? "filled" : "light"} style={{ minWidth: "max-content" }}>
      {role}
    </Badge>
  );
}
