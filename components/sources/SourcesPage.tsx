"use client";
import { Tabs } from "@mantine/core";
import { IconServer, IconUser } from "@tabler/icons-react";
import { parseAsStringLiteral, useQueryState } from "nuqs";
import { useConsoleUser } from "@/components/console/console-user";
import { PageHeader } from "@/components/console/PageHeader";
import { withUrlState } from "@/components/console/url-state";
import { SourcesPanel } from "./SourcesPanel";

/** Sources: the user's personal marketplaces, and for admins a tab with the server's. */
function SourcesPageView() {
  const user = useConsoleUser();
  // The tab is `?scope=server` (personal when absent): a reload keeps it, Back returns to the other.
  const [scope, setScope] = useQueryState(
    "scope",
    parseAsStringLiteral(["personal", "server"] as const)
      .withDefault("personal")
      .withOptions({ history: "push" }),
  );
  const header = <PageHeader title="Template sources" description="Marketplaces whose bank templates you can browse and install." />;
  if (user.role !== "admin") {
    return (
      <>
        {header}
        <SourcesPanel scope="personal" />
      </>
    );
  }
  return (
    <>
      {header}
      <Tabs value={scope} onChange={(value) => setScope(value === "server" ? "server" : null)} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="personal" leftSection={<IconUser size={16} aria-hidden />}>
            Personal
          </Tabs.Tab>
          <Tabs.Tab value="server" leftSection={<IconServer size={16} aria-hidden />}>
            Server
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="personal">
          <SourcesPanel scope="personal" />
        </Tabs.Panel>
        <Tabs.Panel value="server">
          <SourcesPanel scope="server" />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}

export const SourcesPage = withUrlState(SourcesPageView);
