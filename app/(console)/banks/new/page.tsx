import type { Metadata } from "next";
import { NewBankPage } from "@/components/banks/NewBankPage";

export const metadata: Metadata = { title: "New bank" };

// ?template=server/support-bot: the form opens with that template chosen.
export default async function Page({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { template } = await searchParams;
  return <NewBankPage template={typeof template === "string" ? template : undefined} />;
}
