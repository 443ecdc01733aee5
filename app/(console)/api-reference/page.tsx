import type { Metadata } from "next";
import { ApiReference } from "@/components/api-reference/ApiReference";

export const metadata: Metadata = { title: "API reference" };

export default function Page() {
  return <ApiReference />;
}
