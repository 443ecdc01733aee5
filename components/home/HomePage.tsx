"use client";
import { Anchor, Button, Group, SimpleGrid, Stack, Text, ThemeIcon, VisuallyHidden } from "@mantine/core";
import { IconCheck, IconRefresh } from "@tabler/icons-react";
import Link from "next/link";
import { type ComponentProps, type ReactNode, useState } from "react";
import { KEY_EXPIRY_WARN_DAYS, KeyExpiry } from "@/components/account/KeyExpiry";
import { auditSummary } from "@/components/admin/audit-links";
import { bankHref } from "@/components/banks/links";
import { BANKS_LIST_STATES } from "@/components/banks/NewBankButton";
import { behindReason } from "@/components/banks/newest-version";
import { useConsoleUser } from "@/components/console/console-user";
import { PageHeader } from "@/components/console/PageHeader";
import { QueryView } from "@/components/console/QueryView";
import { SectionCard } from "@/components/console/SectionCard";
import { SOURCE_URL_HELP } from "@/components/sources/source-url-help";
import { templatePath, templatesPath, templateUpdatePath } from "@/components/templates/paths";
import { webhookPath } from "@/components/webhooks/paths";
import { failingSentence, isFailing } from "@/components/webhooks/status";
import { formatAge } from "@/lib/client/format";
import { useLatestAuditEntries } from "@/lib/client/hooks/audit";
import { useBanks } from "@/lib/client/hooks/banks";
import { useUsersWithKeysExpiring } from "@/lib/client/hooks/identity";
import { type SourceData, sourceKey, useAvailableSources } from "@/lib/client/hooks/sources";
import { type TemplateData, useCheckAllForUpdates, useUsableTemplates } from "@/lib/client/hooks/templates";
import { useWebhooks } from "@/lib/client/hooks/webhooks";
import { describeError } from "@/lib/client/problem";
import type { ScopeKind } from "@/lib/contracts/scope";
import { plural } from "@/lib/shared/plural";
import { checkAge, type FirstStep, firstSteps, homeSummary, templateAttention } from "./attention";

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
        // A long URL wraps anywhere rather than stick out of a phone's width.
        <li key={item.key} style={{ overflowWrap: "anywhere" }}>
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

/** "last checked 2 days ago", or "never checked". */
const checkedWhen = (at: string | null) => (at ? `last checked ${checkAge(at, Date.now())}` : "never checked");

function UpdatesCard({ isAdmin }: { isAdmin: boolean }) {
  const templates = useUsableTemplates();
  const mayUpdate = (t: TemplateData) => t.scope === "personal" || isAdmin;
  // Members see the server's templates but cannot update them: their row leads to the template.
  const updateItem = (t: TemplateData): Item => {
    const ref = `${t.scope}/${t.id}`;
    const revisions = `revision ${shortRevision(t.source_revision)} → ${shortRevision(t.latest_revision)}`;
    return {
      key: ref,
      href: mayUpdate(t) ? templateUpdatePath(t.scope, t.id) : templatePath(t.scope, t.id),
      label: `${t.name} (${ref})`,
      detail: mayUpdate(t) ? `${revisions}: review the update` : `${revisions}; an administrator updates server templates`,
    };
  };
  // Its page checks it on opening, for those who may update it.
  const uncheckedItem = (t: TemplateData): Item => {
    const ref = `${t.scope}/${t.id}`;
    const when = checkedWhen(t.update_checked_at);
    return {
      key: ref,
      href: templatePath(t.scope, t.id),
      label: `${t.name} (${ref})`,
      detail: mayUpdate(t)
        ? `${when}: an update may be waiting; open it to check`
        : `${when}: an update may be waiting; an administrator checks server templates`,
    };
  };
  return (
    <AttentionCard
      title="Template updates"
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
        const { updates, unchecked, oldestCheck } = templateAttention(data.templates, Date.now());
        const items = [...updates.map(updateItem), ...unchecked.map(uncheckedItem)];
        const sourced = (Object.keys(oldestCheck) as ScopeKind[]).length > 0;
        const ownCount = data.templates.filter((t) => t.scope === "personal").length;
        const serverCount = data.templates.length - ownCount;
        return (
          <Stack gap="sm">
            {items.length > 0 ? (
              <ItemList items={items} more={{ href: "/templates", label: "see Templates" }} />
            ) : (
              <AllClear>
                {sourced
                  ? "No update waiting, as of the last checks."
                  : "None of these templates comes from a source, so none has updates to wait for."}
              </AllClear>
            )}
            <CheckedLines oldestCheck={oldestCheck} isAdmin={isAdmin} />
            {!isAdmin && ownCount === 0 && <NoOwnTemplates serverCount={serverCount} />}
            <CheckNow isAdmin={isAdmin} templates={data.templates} />
          </Stack>
        );
      }}
    </AttentionCard>
  );
}

/** When each scope's templates were last checked for updates (the least recent of them), and who checks the server's. */
function CheckedLines({ oldestCheck, isAdmin }: { oldestCheck: ReturnType<typeof templateAttention>["oldestCheck"]; isAdmin: boolean }) {
  const line = (whose: string, at: string | null | undefined, after = "") => {
    if (at === undefined) return null;
    if (at === null) return `One of ${whose} templates from sources was never checked for updates${after}.`;
    return `${whose[0]!.toUpperCase()}${whose.slice(1)} templates from sources were last checked for updates ${checkAge(at, Date.now())}${after}.`;
  };
  const lines = [
    line("your", oldestCheck.personal),
    line("the server's", oldestCheck.server, isAdmin ? "" : "; an administrator checks and updates them"),
  ].filter((l) => l !== null);
  if (lines.length === 0) return null;
  return (
    <Stack gap={2} data-testid="home-update-checks">
      {lines.map((l) => (
        <Text key={l} size="sm" c="dimmed">
          {l}
        </Text>
      ))}
    </Stack>
  );
}

/** A member with none of their own: the server's templates are theirs to use. */
function NoOwnTemplates({ serverCount }: { serverCount: number }) {
  return (
    <Stack gap={4} data-testid="home-no-own-templates">
      <Text size="sm">You have no templates of your own. The server has {plural(serverCount, "template")} you can create banks from.</Text>
      <Group gap="md">
        <Anchor component={Link} href={templatesPath("server")} size="sm">
          See the server&apos;s templates
        </Anchor>
        <Anchor component={Link} href="/marketplace" size="sm">
          Open the Marketplace
        </Anchor>
      </Group>
    </Stack>
  );
}

/**
 * "Check for updates now": asks the sources about every template from a source the user may
 * update (their own; for admins the server's too), one bulk check per scope, and says how it went.
 */
function CheckNow({ isAdmin, templates }: { isAdmin: boolean; templates: TemplateData[] }) {
  const personal = useCheckAllForUpdates("personal");
  const server = useCheckAllForUpdates("server");
  const [outcome, setOutcome] = useState<string | null>(null);
  const scopes = (["personal", "server"] as const).filter(
    (scope) => (scope === "personal" || isAdmin) && templates.some((t) => t.scope === scope && t.source_name !== null),
  );
  if (scopes.length === 0) return null;
  const busy = personal.isPending || server.isPending;
  const run = async () => {
    setOutcome(null);
    try {
      const answers = await Promise.all(scopes.map((scope) => (scope === "server" ? server : personal).mutateAsync({})));
      const results = answers.flatMap((a) => a.results);
      const failed = results.filter((r) => r.problem).length;
      const found = results.filter((r) => !r.problem && r.has_update).length;
      setOutcome(
        `Checked ${plural(results.length, "template")}: ${found === 0 ? "no update" : `${plural(found, "update")} found`}` +
          `${failed ? `; ${failed} could not be checked (see Templates)` : ""}.`,
      );
    } catch (error) {
      setOutcome(`Could not check: ${describeError(error)}`);
    }
  };
  return (
    <Group gap="sm">
      <Button size="xs" variant="default" leftSection={<IconRefresh size={14} aria-hidden />} loading={busy} onClick={run}>
        Check for updates now
      </Button>
      <Text size="sm" role="status" data-testid="home-check-outcome">
        {outcome}
      </Text>
    </Group>
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
              label: auditSummary(entry),
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

/**
 * The webhooks whose deliveries fail (or that the server paused for it): the user's own, and for
 * admins the server's too. One query's states for both lists; `data` is every webhook of them.
 */
function useWebhookLists(isAdmin: boolean) {
  const own = useWebhooks("personal");
  const server = useWebhooks("server", { enabled: isAdmin });
  const lists = isAdmin ? [own, server] : [own];
  const data =
    own.data && (!isAdmin || server.data)
      ? [
          ...own.data.map((webhook) => ({ scope: "personal" as const, webhook })),
          ...(isAdmin ? (server.data ?? []) : []).map((webhook) => ({ scope: "server" as const, webhook })),
        ]
      : undefined;
  return {
    isPending: lists.some((q) => q.isPending),
    isError: lists.some((q) => q.isError),
    error: lists.find((q) => q.isError)?.error,
    data,
    refetch: () => Promise.all(lists.map((q) => q.refetch())),
  };
}

/** Failing webhooks, each leading to its deliveries; a user with no webhook has no such card. */
function WebhooksCard({ isAdmin }: { isAdmin: boolean }) {
  const webhooks = useWebhookLists(isAdmin);
  if (webhooks.data?.length === 0) return null;
  return (
    <AttentionCard
      title="Webhooks failing"
      testId="home-webhooks"
      query={webhooks}
      loading="Loading webhooks…"
      errorTitle="Could not load webhooks"
    >
      {(data) => {
        const failing = data.filter(({ webhook }) => isFailing(webhook));
        if (failing.length === 0) return <AllClear>Every webhook's last delivery went through.</AllClear>;
        const items = failing.map(({ scope, webhook }) => ({
          key: `${scope}:${webhook.id}`,
          href: webhookPath(scope, webhook.id),
          label: isAdmin ? `${webhook.url} (${scope})` : webhook.url,
          detail: failingSentence(webhook),
        }));
        return <ItemList items={items} more={{ href: "/webhooks", label: "see Webhooks" }} />;
      }}
    </AttentionCard>
  );
}

/** What Home's summary says, once every list is known; null while one loads or failed (its card says so). */
function useHomeState(isAdmin: boolean) {
  const templates = useUsableTemplates();
  const banks = useBanks();
  const sources = useAvailableSources();
  const keys = useUsersWithKeysExpiring(KEY_EXPIRY_WARN_DAYS, { enabled: isAdmin });
  const webhooks = useWebhookLists(isAdmin);
  if (!templates.data || !banks.data || !sources.data || (isAdmin && !keys.data) || !webhooks.data) return null;
  const { updates, unchecked } = templateAttention(templates.data.templates, Date.now());
  const waiting =
    updates.length +
    unchecked.length +
    banks.data.banks.filter((b) => b.behind).length +
    sources.data.filter((s) => s.catalog_error !== null).length +
    (isAdmin ? (keys.data?.length ?? 0) : 0) +
    webhooks.data.filter(({ webhook }) => isFailing(webhook)).length;
  const steps = firstSteps({ sources: sources.data.length, templates: templates.data.templates.length, banks: banks.data.banks.length });
  return { waiting, steps };
}

const STEPS: Record<FirstStep, { title: string; todo: string; done: string; action: ReactNode }> = {
  source: {
    title: "Add a source",
    todo: `A source is a marketplace of templates. ${SOURCE_URL_HELP}`,
    done: "You can install from a source.",
    action: (
      <Button component={Link} href="/sources" size="xs">
        Add a source
      </Button>
    ),
  },
  template: {
    title: "Install a template",
    todo: "Pick one from a source's catalog in the Marketplace, or write one yourself.",
    done: "You have templates to create banks from.",
    action: (
      <Button component={Link} href="/marketplace" size="xs">
        Open the Marketplace
      </Button>
    ),
  },
  bank: {
    title: "Create a bank",
    todo: "Create a bank from a template: preview what it will hold, then apply it.",
    done: "",
    action: (
      <Button component={Link} href="/banks/new" size="xs">
        Create a bank
      </Button>
    ),
  },
};

/** Until the user has a bank: the three steps there, each done or with the button that does it. */
function FirstStepsCard({ steps }: { steps: NonNullable<ReturnType<typeof firstSteps>> }) {
  const next = steps.find((s) => !s.done)?.step;
  return (
    <SectionCard title="First steps" data-testid="home-first-steps" mb="md">
      <Stack component="ol" gap="sm" style={{ listStyle: "none", padding: 0, margin: 0 }}>
        {steps.map(({ step, done }, i) => {
          const { title, todo, done: doneText, action } = STEPS[step];
          return (
            <Group component="li" key={step} gap="sm" align="flex-start" wrap="nowrap" data-testid={`first-step-${step}`}>
              <ThemeIcon color={done ? "green" : "gray"} variant={done ? "filled" : "light"} radius="xl" size="md" aria-hidden>
                {done ? (
                  <IconCheck size={14} />
                ) : (
                  <Text size="xs" fw={700}>
                    {i + 1}
                  </Text>
                )}
              </ThemeIcon>
              <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
                <Text fw={500}>
                  {title}
                  {done && <VisuallyHidden>: done</VisuallyHidden>}
                </Text>
                <Text size="sm" c="dimmed">
                  {done ? doneText : todo}
                </Text>
                {!done && step === next && <div>{action}</div>}
              </Stack>
            </Group>
          );
        })}
      </Stack>
    </SectionCard>
  );
}

/**
 * Home: what needs the user's attention, each row a link to where it is handled. Everyone sees
 * their own and the server's templates, banks and sources, and their failing webhooks; admins also
 * the server's failing webhooks, the latest audit entries and the users whose API keys expire soon. Until the user has a bank, the first steps lead there.
 */
export function HomePage() {
  const user = useConsoleUser();
  const isAdmin = user.role === "admin";
  const state = useHomeState(isAdmin);
  return (
    <>
      <PageHeader title="Home" description="What needs your attention, each with a link to where you handle it." />
      {state !== null && (
        <Text fw={500} mb="md" role="status" data-testid="home-summary">
          {homeSummary(state.waiting, state.steps)}
        </Text>
      )}
      {state?.steps && <FirstStepsCard steps={state.steps} />}
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <UpdatesCard isAdmin={isAdmin} />
        <BanksCard />
        <SourcesCard isAdmin={isAdmin} />
        <WebhooksCard isAdmin={isAdmin} />
        {isAdmin && <ExpiringKeysCard />}
        {isAdmin && <AuditCard />}
      </SimpleGrid>
    </>
  );
}
