"use client";
import { Anchor, Breadcrumbs, Text } from "@mantine/core";
import Link from "next/link";
import { bankHref } from "./links";

/** Banks › {bank} › {page}: where a bank page sits, the last crumb being this page. */
export function BankBreadcrumbs({ bankId, page }: { bankId: string; page?: string }) {
  const here = (label: string) => (
    <Text size="sm" aria-current="page" style={{ wordBreak: "break-all" }}>
      {label}
    </Text>
  );
  return (
    <nav aria-label="Breadcrumb">
      <Breadcrumbs mb="sm" separatorMargin={6} style={{ flexWrap: "wrap" }}>
        <Anchor component={Link} href="/banks" size="sm">
          Banks
        </Anchor>
        {page ? (
          <Anchor component={Link} href={bankHref(bankId)} size="sm" style={{ wordBreak: "break-all" }}>
            {bankId}
          </Anchor>
        ) : (
          here(bankId)
        )}
        {page && here(page)}
      </Breadcrumbs>
    </nav>
  );
}
