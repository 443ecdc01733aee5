"use client";
import { Alert, Anchor, Title } from "@mantine/core";
import Link from "next/link";
import type { ScopeKind } from "@/lib/contracts/scope";
import { templatesPath } from "./paths";

/** A template page whose template is not there (a 404): most likely deleted since. */
export function TemplateNotFound({ scope, id }: { scope: ScopeKind; id: string }) {
  return (
    <>
      <Title order={1} size="h2" mb="md">
        Template not found
      </Title>
      <Alert color="gray" title={`There is no ${scope === "server" ? "server " : ""}template ${id}`}>
        It may have been deleted.{" "}
        <Anchor component={Link} href={templatesPath(scope)}>
          Back to the templates
        </Anchor>
      </Alert>
    </>
  );
}
