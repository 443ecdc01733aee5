import type { Metadata } from "next";
import { NewBankPage } from "@/components/banks/NewBankPage";

export const metadata: Metadata = { title: "New bank" };

export default function Page() {
  return <NewBankPage />;
}
