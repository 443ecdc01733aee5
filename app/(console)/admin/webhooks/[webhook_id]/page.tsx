import type { Metadata } from "next";
import { WebhookDetailPage } from "@/components/webhooks/WebhookDetailPage";
import { webhookIdParam } from "../../../webhooks/webhook-id";

type Props = { params: Promise<{ webhook_id: string }> };

export const metadata: Metadata = { title: "Server webhook" };

export default async function Page({ params }: Props) {
  return <WebhookDetailPage scope="server" webhookId={await webhookIdParam(params)} />;
}
