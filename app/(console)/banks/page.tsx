import type { Metadata } from "next";
import { BanksPage } from "@/components/banks/BanksPage";

export const metadata: Metadata = { title: "Banks" };

export default function Page() {
  return <BanksPage />;
}
