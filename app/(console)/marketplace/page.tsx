import type { Metadata } from "next";
import { ComingSoon } from "@/components/console/ComingSoon";

export const metadata: Metadata = { title: "Marketplace" };

// Placeholder until the marketplace API lands.
export default function Page() {
  return <ComingSoon title="Marketplace" what="Browse each source's catalog, preview manifests and install templates. This page is being built." />;
}
