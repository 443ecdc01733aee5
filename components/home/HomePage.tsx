"use client";
import { Anchor, Button, Group, SimpleGrid, Stack, Text } from "@mantine/core";
import Link from "next/link";
import type { ComponentProps, ReactNode } from "react";
import { KEY_EXPIRY_WARN_DAYS, KeyExpiry } from "@/components/account/KeyExpiry";
import { targetLabel } from "@/components/admin/audit-links";
import { bankHref } from "@/components/banks/links";
import { BANKS_LIST_STATES } from "@/components/banks/NewBankButton";
import { behindReason } from "@/components/banks/newest-version";
import { useConsoleUser } from "@/components/console/console-user";
import { PageHeader } from "@/components/console/PageHeader";
import { QueryView } from "@/components/console/QueryView";
import { SectionCard } from "@/components/console/SectionCard";
import { SOURCE_URL_HELP } from "@/components/sources/source-url-help";
import { templatePath, templateUpdatePath } from "@/components/templates/paths";
import { formatAge, plural } from "@/lib/client/format";
import { useLatestAuditEntries } from "@/lib/client/hooks/audit";
import { useBanks } from "@/lib/client/hooks/banks";
import { useUsersWithKeysExpiring } from "@/lib/client/hooks/identity";
import { type SourceData, sourceKey, useAvailableSources } from "@/lib/client/hooks/sources";
import { hasUpdate, type TemplateData, useUsableTemplates } from "@/lib/client/hooks/templates";

/** How many rows a card lists before it sends to the page that holds them all. */
const SHOWN = 8;
const LATEST_AUDIT_ENTRIES = 5;

interface Item {
  key: string;
  href: string;
  label: string;
  detail: ReactNode;
}

/** A card's rows, each a link to where it is handled; past SHOWN, a link to the page with the rest. */
function ItemList({ items, more }: { items: Item[]; more: { href: string; label: string } }) {
  return (
    <Stack component="ul" gap="xs" style={{ listStyle: "none", padding: 0, margin: 0 }}>
      {items.slice(0, SHOWN).map((item) => (
        <li key={item.key}>
          <Anchor component={Link} href={item.href} fw={500}>
            {item.label}
          </Anchor>
          <Text size="sm" c="dimmed" component="div">
            {item.detail}
          </Text>
        </li>
      ))}
      {items.length > SHOWN && (
        <li>
          <Anchor component={Link} href={more.href} size="sm">
            {plural(items.length - SHOWN, "more")}: {more.label}
          </Anchor>
        </li>
      )}
    </Stack>
  );
}

/** One card of the page: its query's loading, failure and empty states (QueryView), then what waits, or that nothing does. */
function AttentionCard<T>({ title, testId, children, ...view }: { title: string; testId: string } & ComponentProps<typeof QueryView<T>>) {
  return (
    <SectionCard title={title} data-testid={testId}>
      <QueryView {...view}>{children}</QueryView>
    </SectionCard>
  );
}

/** A card with nothing waiting: said plainly. */
function AllClear({ children }: { children: ReactNode }) {
  return (
    <Text size="sm" c="dimmed" data-testid="all-clear">
      {children}
    </Text>
  );
}

const shortRevision = (revision: string | null) => revision?.slice(0, 8) ?? "none";

function UpdatesCard({ isAdmin }: { isAdmin: boolean }) {
  const templates = useUsableTemplates();
  // Members see the server's templates but cannot update them: their row leads to the template.
  const itemOf = (t: TemplateData): Item => {
    const ref = `${t.scope}/${t.id}`;
    const mayUpdate = t.scope === "personal" || isAdmin;
    const revisions = `revision ${shortRevision(t.source_revision)} → ${shortRevision(t.latest_revision)}`;
    return {
      key: ref,
      href: mayUpdate ? templateUpdatePath(t.scope, t.id) : templatePath(t.scope, t.id),
      label: `${t.name} (${ref})`,
      detail: mayUpdate ? `${revisions}: review the update` : `${revisions}; an administrator updates server templates`,
    };
  };
  return (
    <AttentionCard
      title="Templates with updates waiting"
      testId="home-updates"
      query={templates}
      loading="Loading templates…"
      errorTitle="Could not load templates"
      isEmpty={(data) => data.templates.length === 0}
      empty={{
        title: "No templates yet",
        description: "Install one from a source's catalog in the Marketplace, or write one yourself.",
        action: (
          <Group justify="center" gap="sm">
            <Button component={Link} href="/marketplace">
              Open the Marketplace
            </Button>
            <Button component={Link} href="/templates/new" variant="default">
              New template
            </Button>
          </Group>
        ),
      }}
    >
      {(data) => {
        const waiting = data.templates.filter(hasUpdate);
        if (waiting.length === 0) return <AllClear>Every template is up to date with its source.</AllClear>;
        return <ItemList items={waiting.map(itemOf)} more={{ href: "/templates", label: "see Templates" }} />;
      }}
    </AttentionCard>
  );
}

function BanksCard() {
  const banks = useBanks();
  return (
    <AttentionCard title="Banks behind their template" testId="home-behind" query={banks} {...BANKS_LIST_STATES}>
      {(data) => {
        const behind = data.banks.filter((b) => b.behind);
        if (behind.length === 0) return <AllClear>Every bank holds the latest version of its template.</AllClear>;
        const items = behind.map((b) => ({
          key: b.bank_id,
          href: bankHref(b.bank_id),
          label: b.name === b.bank_id ? b.bank_id : `${b.name} (${b.bank_id})`,
          detail: behindReason(b.last_applied?.template ?? "Its template", b.newest_version),
        }));
        return <ItemList items={items} more={{ href: "/banks", label: "see Banks" }} />;
      }}
    </AttentionCard>
  );
}

function SourcesCard({ isAdmin }: { isAdmin: boolean }) {
  const sources = useAvailableSources();
  // Where a failing source is fixed: its sources tab; a member cannot fix the server's, whose
  // catalog (and its failure) the Marketplace shows.
  const hrefOf = (s: SourceData) =>
    s.scope === "personal" ? "/sources" : isAdmin ? "/sources?scope=server" : `/marketplace?source=${encodeURIComponent(sourceKey(s))}`;
  return (
    <AttentionCard
      title="Sources whose last fetch failed"
      testId="home-sources"
      query={sources}
      loading="Loading sources…"
      errorTitle="Could not load sources"
      isEmpty={(data) => data.length === 0}
      empty={{
        title: "No sources yet",
        description: `Add a source to browse and install its templates. ${SOURCE_URL_HELP}`,
        action: (
          <Button component={Link} href="/sources">
            Add a source
          </Button>
        ),
      }}
    >
      {(data) => {
        const failing = data.filter((s) => s.catalog_error !== null);
        if (failing.length === 0) return <AllClear>Every source's catalog could be fetched the last time it was asked for.</AllClear>;
        const items = failing.map((s) => ({
          key: sourceKey(s),
          href: hrefOf(s),
          label: `${s.name} (${s.scope})`,
          detail: s.catalog_error,
        }));
        return <ItemList items={items} more={{ href: "/sources", label: "see Sources" }} />;
      }}
    </AttentionCard>
  );
}

function AuditCard() {
  const audit = useLatestAuditEntries(LATEST_AUDIT_ENTRIES);
  return (
    <AttentionCard
      title="Latest audit entries"
      testId="home-audit"
      query={audit}
      loading="Loading the audit log…"
      errorTitle="Could not load the audit log"
      isEmpty={(data) => data.entries.length === 0}
      empty={{ title: "No entries yet", description: "Every write, through the console or the API, is recorded in the audit log." }}
    >
      {(data) => (
        <Stack gap="sm">
          <ItemList
            items={data.entries.map((entry) => ({
              key: entry.id,
              href: `/admin/audit?${new URLSearchParams({ target: entry.target })}`,
              label: `${entry.action}: ${targetLabel(entry)}`,
              detail: `by ${entry.actor.principal_id}, ${formatAge(entry.at)}`,
            }))}
            more={{ href: "/admin/audit", label: "see the audit log" }}
          />
          <Anchor component={Link} href="/admin/audit" size="sm">
            Open the audit log
          </Anchor>
        </Stack>
      )}
    </AttentionCard>
  );
}

function ExpiringKeysCard() {
  const users = useUsersWithKeysExpiring(KEY_EXPIRY_WARN_DAYS);
  return (
    <AttentionCard
      title="API keys expiring soon"
      testId="home-expiring"
      query={users}
      loading="Loading users' API keys…"
      errorTitle="Could not load users' API keys"
    >
      {(list) => {
        if (list.length === 0) return <AllClear>No user's API key expires within {plural(KEY_EXPIRY_WARN_DAYS, "day")}.</AllClear>;
        const items = list.map((u) => ({
          key: u.id,
          href: `/admin/users?${new URLSearchParams({ q: u.id })}`,
          label: u.display_name === u.id ? u.id : `${u.display_name} (${u.id})`,
          detail: <KeyExpiry expiresAt={u.next_key_expires_at ?? null} />,
        }));
        return <ItemList items={items} more={{ href: "/admin/users", label: "see Users" }} />;
      }}
    </AttentionCard>
  );
}

/** How many things wait, once every count is known; null while one loads or failed (its card says so). */
function useAttentionCount(isAdmin: boolean): number | null {
  const templates = useUsableTemplates();
  const banks = useBanks();
  const sources = useAvailableSources();
  const keys = useUsersWithKeysExpiring(KEY_EXPIRY_WARN_DAYS, { enabled: isAdmin });
  if (!templates.data || !banks.data || !sources.data || (isAdmin && !keys.data)) return null;
  return (
    templates.data.templates.filter(hasUpdate).length +
    banks.data.banks.filter((b) => b.behind).length +
    sources.data.filter((s) => s.catalog_error !== null).length +
    (isAdmin ? (keys.data?.length ?? 0) : 0)
  );
}

/**
 * Home: what needs the user's attention, each row a link to where it is handled. Everyone sees
 * their own and the server's templates, banks and sources; admins also the latest audit entries
 * and the users whose API keys expire soon.
 */
export function HomePage() {
  const user = useConsoleUser();
  const isAdmin = user.role === "admin";
  const waiting = useAttentionCount(isAdmin);
  return (
    <>
      <PageHeader title="Home" description="What needs your attention, each with a link to where you handle it." />
      {waiting !== null && (
        <Text fw={500} mb="md" role="status" data-testid="home-summary">
          {waiting === 0 ? "Nothing needs your attention." : `${plural(waiting, "thing needs", "things need")} your attention.`}
        </Text>
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <UpdatesCard isAdmin={isAdmin} />
        <BanksCard />
        <SourcesCard isAdmin={isAdmin} />
        {isAdmin && <ExpiringKeysCard />}
        {isAdmin && <AuditCard />}
      </SimpleGrid>
    </>
  );
}
