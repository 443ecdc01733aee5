"use client";
import { Button } from "@mantine/core";
import { IconPlus } from "@tabler/icons-react";
import Link from "next/link";

export function NewBankButton({ label = "New bank" }: { label?: string }) {
  return (
    <Button component={Link} href="/banks/new" leftSection={<IconPlus size={16} aria-hidden />}>
      {label}
    </Button>
  );
}

/** The empty state of a bank list (the Banks page, the home page): what to do first. */
/** How a view of the banks list says it is loading, failed or empty: the Banks page and Home show it alike. */
export const BANKS_LIST_STATES = {
  loading: "Loading banks…",
  errorTitle: "Could not load banks",
  isEmpty: (data: { banks: unknown[] }) => data.banks.length === 0,
  empty: {
    title: "No banks yet",
    description: "Create a bank from one of your templates: preview what it will contain, then apply it.",
    action: <NewBankButton label="Create a bank" />,
  },
};
