"use client";
import { PageHeader } from "@/components/console/PageHeader";
import { SourcesPanel } from "./SourcesPanel";

/** Admin › Server sources: marketplaces every user of the server can install from. */
export function ServerSourcesPage() {
  return (
    <>
      <PageHeader title="Server sources" description="Marketplaces shared with every user of this server." />
      <SourcesPanel scope="server" />
    </>
  );
}
