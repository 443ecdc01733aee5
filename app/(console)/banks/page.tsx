import type { Metadata } from "next";
import { ComingSoon } from "@/components/console/ComingSoon";

export const metadata: Metadata = { title: "Banks" };

// Placeholder until the banks API lands.
export default function Page() {
  return <ComingSoon title="Banks" what="Create banks from templates with a dry-run preview, and edit bank policies. This page is being built." />;
}
