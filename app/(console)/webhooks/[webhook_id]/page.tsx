import type { Metadata } from "next";
import { WebhookDetailPage } from "@/components/webhooks/WebhookDetailPage";
import { webhookIdParam } from "../webhook-id";

type Props = { params: Promise<{ webhook_id: string }> };

export const metadata: Metadata = { title: "Webhook" };

export default async function Page({ params }: Props) {
  return <WebhookDetailPage scope="personal" webhookId={await webhookIdParam(params)} />;
}
