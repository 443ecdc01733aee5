import type { Metadata } from "next";
import { PolicyPage } from "@/components/banks/policy/PolicyPage";
import { bankIdParam } from "../bank-id";

type Props = { params: Promise<{ bank_id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Policy of ${await bankIdParam(params)}` };
}

export default async function Page({ params }: Props) {
  return <PolicyPage bankId={await bankIdParam(params)} />;
}
