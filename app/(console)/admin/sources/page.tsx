import type { Metadata } from "next";
import { ServerSourcesPage } from "@/components/sources/ServerSourcesPage";

export const metadata: Metadata = { title: "Server sources" };

export default function Page() {
  return <ServerSourcesPage />;
}
