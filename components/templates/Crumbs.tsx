"use client";
import { Anchor, Breadcrumbs, Text } from "@mantine/core";
import Link from "next/link";
import type { ScopeKind } from "@/lib/contracts/scope";
import { templatePath, templatesPath } from "./paths";

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

/** The crumbs of a page about one template (its update, its versions): the templates, the template, the page. */
export function TemplateSubpageCrumbs({ scope, id, current }: { scope: ScopeKind; id: string; current: string }) {
  return (
    <Crumbs
      trail={[
        { href: templatesPath(scope), label: scope === "server" ? "Server templates" : "Templates" },
        { href: templatePath(scope, id), label: id },
      ]}
      current={current}
    />
  );
}
