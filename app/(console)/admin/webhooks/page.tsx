import type { Metadata } from "next";
import { WebhooksPage } from "@/components/webhooks/WebhooksPage";

export const metadata: Metadata = { title: "Server webhooks" };

export default function Page() {
  return <WebhooksPage scope="server" />;
}
