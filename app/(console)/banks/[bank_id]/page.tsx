import type { Metadata } from "next";
import { BankDetailPage } from "@/components/banks/BankDetailPage";
import { bankIdParam } from "./bank-id";

type Props = { params: Promise<{ bank_id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Bank ${await bankIdParam(params)}` };
}

export default async function Page({ params }: Props) {
  return <BankDetailPage bankId={await bankIdParam(params)} />;
}
