"use client";
import { Alert, Anchor, Badge, Code, DataList, Group, Text } from "@mantine/core";
import { IconArrowBackUp } from "@tabler/icons-react";
import Link from "next/link";
import type { z } from "zod";
import { useConsoleUser } from "@/components/console/console-user";
import { templatePath } from "@/components/templates/paths";
import { formatTimestamp } from "@/lib/client/format";
import type { BankDetail } from "@/lib/contracts/banks/schemas";
import type { ScopeKind } from "@/lib/contracts/scope";
import { Fact } from "./Fact";
import { behindColor, behindLabel, rollbackWarning } from "./newest-version";

type Bank = z.output<typeof BankDetail>;
type LastApplied = NonNullable<Bank["last_applied"]>;

/**
 * The template a ref names as far as this viewer can tell: a `personal/` ref names the applying
 * user's template, so it is the viewer's own only on their own bank; a `server/` one is everyone's.
 */
function viewedTemplate(ref: string, bank: Bank, user: { id: string }) {
  const slash = ref.indexOf("/");
  const scope = ref.slice(0, slash) as ScopeKind;
  const id = ref.slice(slash + 1);
  if (scope === "personal" && bank.owner !== user.id) return null;
  return { scope, id };
}

/**
 * `personal/x version 7 (edited locally)`, linked to the template when the viewer can open it, and
 * whether the bank is behind: "version 9 available", or, when the newest version is a rollback,
 * which version it restores and that rolling it out takes the bank back.
 */
export function BankProvenance({ bank }: { bank: Bank }) {
  const user = useConsoleUser();
  const applied = bank.last_applied;
  const template = applied ? viewedTemplate(applied.template, bank, user) : null;
  if (!applied) {
    return (
      <Text size="sm" c="dimmed" data-testid="bank-provenance">
        No template has been applied to this bank through this server.
      </Text>
    );
  }
  const warning = bank.behind ? rollbackWarning(bank.newest_version, "this bank") : null;
  return (
    <DataList size="sm" labelWidth={110} data-testid="bank-provenance">
      <Fact label="Template">
        <Group gap={6} wrap="wrap" data-testid="bank-provenance-line">
          <Text size="sm" span>
            {template ? (
              <Anchor component={Link} href={templatePath(template.scope, template.id)} size="sm">
                <Code>{applied.template}</Code>
              </Anchor>
            ) : (
              <Code>{applied.template}</Code>
            )}
            {describeVersion(applied)}
          </Text>
          {bank.behind && (
            <Badge color={behindColor(bank.newest_version)} variant="light" data-testid="bank-behind">
              {behindLabel(bank.newest_version)}
            </Badge>
          )}
        </Group>
        {warning && (
          <Alert color="grape" variant="light" mt="xs" p="xs" icon={<IconArrowBackUp aria-hidden />} data-testid="bank-rollback-warning">
            {warning}
          </Alert>
        )}
      </Fact>
      <Fact label="Revision">{applied.source_revision ?? "none (hand-made template)"}</Fact>
      <Fact label="Applied">{formatTimestamp(applied.applied_at)}</Fact>
    </DataList>
  );
}

/** ` version 7 (edited locally)`; nothing for an import recorded before versions were kept. */
function describeVersion(applied: LastApplied): string {
  if (applied.template_version === null) return "";
  return ` version ${applied.template_version}${applied.locally_modified ? " (edited locally)" : ""}`;
}
