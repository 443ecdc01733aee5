"use client";
import { Anchor, Breadcrumbs, Card, Text } from "@mantine/core";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { lazySection } from "@/components/console/lazy";
import { PageHeader } from "@/components/console/PageHeader";
import { LoadingState } from "@/components/console/states";
import { bankHref } from "./links";

// The form needs the template choices from the API before it is of use; its code loads alongside them.
const ApplyTemplateForm = lazySection(
  () => import("./ApplyTemplateForm").then((m) => m.ApplyTemplateForm),
  <LoadingState label="Loading the form…" />,
);

/** New bank: id, name and template; a dry-run preview, then Apply, then the bank's page. */
export function NewBankPage({ template }: { template?: string }) {
  const router = useRouter();
  return (
    <>
      <Breadcrumbs mb="sm" aria-label="Breadcrumb" separatorMargin={6}>
        <Anchor component={Link} href="/banks" size="sm">
          Banks
        </Anchor>
        <Text size="sm" aria-current="page">
          New bank
        </Text>
      </Breadcrumbs>
      <PageHeader
        title="New bank"
        description="Create a memory bank from a template. Preview shows what the template will create before anything is written."
      />
      <Card withBorder padding="lg" maw={760}>
        <ApplyTemplateForm
          initialTemplate={template}
          onApplied={(result) => router.push(bankHref(result.bank_id))}
          onCancel={() => router.push("/banks")}
        />
      </Card>
    </>
  );
}
