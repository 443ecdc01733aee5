import type { Metadata } from "next";
import { ComingSoon } from "@/components/console/ComingSoon";

export const metadata: Metadata = { title: "Templates" };

// Placeholder until the templates API lands.
export default function Page() {
  return <ComingSoon title="Templates" what="Installed templates with update checks, the manifest editor and diffs. This page is being built." />;
}
