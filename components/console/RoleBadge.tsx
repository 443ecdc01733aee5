"use client";
import { Badge } from "@mantine/core";
import type { Role } from "@/lib/contracts/fields";

/** A role as a badge. */
export function RoleBadge({ role }: { role: Role }) {
  return <Badge variant={role === "admin" ? "filled" : "light"}>{role}</Badge>;
}
