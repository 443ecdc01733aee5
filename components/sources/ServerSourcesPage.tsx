"use client";
import { PageHeader } from "@/components/console/PageHeader";
import { withUrlState } from "@/components/console/url-state";
import { SourcesPanel } from "./SourcesPanel";

/** Admin › Server sources: marketplaces every user of the server can install from. */
function ServerSourcesPageView() {
  return (
    <>
      <PageHeader title="Server sources" description="Marketplaces shared with every user of this server." />
      <SourcesPanel scope="server" />
    </>
  );
}

export const ServerSourcesPage = withUrlState(ServerSourcesPageView);
