"use client";
import { Anchor, Breadcrumbs, Text } from "@mantine/core";
import Link from "next/link";

/** Where a template page sits: links up the way, and the page itself last. */
export function Crumbs({ trail, current }: { trail: { href: string; label: string }[]; current: string }) {
  return (
    <nav aria-label="Breadcrumb">
      <Breadcrumbs mb="sm">
        {trail.map((crumb) => (
          <Anchor key={crumb.href} component={Link} href={crumb.href} size="sm">
            {crumb.label}
          </Anchor>
        ))}
        <Text size="sm" aria-current="page">
          {current}
        </Text>
      </Breadcrumbs>
    </nav>
  );
}
