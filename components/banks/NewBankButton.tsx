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
export const NO_BANKS_YET = {
  title: "No banks yet",
  description: "Create a bank from one of your templates: preview what it will contain, then apply it.",
  action: <NewBankButton label="Create a bank" />,
};
