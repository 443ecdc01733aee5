import "server-only";
import { sql } from "drizzle-orm";
import { bigserial, boolean, foreignKey, index, integer, json, pgTable, primaryKey, text, timestamp, unique } from "drizzle-orm/pg-core";
import type { TemplateContent } from "@/lib/contracts/templates/content-fields";

// Millisecond precision: every timestamp leaves the API as ISO 8601 with ms and Z.
const timestamptz = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: "date" });
const createdAt = () => timestamptz("created_at").notNull().defaultNow();
const updatedAt = () => timestamptz("updated_at").notNull().defaultNow();

/**
 * A template's content (lib/contracts/templates/content-fields.ts), the same columns in
 * `templates` and in each of its `template_versions`.
 */
const templateContentColumns = () => ({
  name: text("name").notNull(),
  description: text("description"),
  category: text("category"),
  integrations: text("integrations").array().notNull().default(sql`'{}'::text[]`),
  tags: text("tags").array().notNull().default(sql`'{}'::text[]`),
  homepageUrl: text("homepage_url"),
  manifest: json("manifest").$type<Record<string, unknown>>().notNull(),
});

export const users = pgTable("users", {
  id: text("id").primaryKey(),
  displayName: text("display_name").notNull(),
  email: text("email"),
  role: text("role", { enum: ["admin", "member"] })
    .notNull()
    .default("member"),
  isActive: boolean("is_active").notNull().default(true),
  passwordHash: text("password_hash"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  /** The user's latest console sign-in (password or single sign-on); null: never. */
  lastSignInAt: timestamptz("last_sign_in_at"),
});

/**
 * A user's link to an account at the single-sign-on provider: the provider's `iss` and `sub`,
 * which never change, unlike its email. Made at the first sign-in (matched by email, or creating
 * the user); later sign-ins find the user by it. One per user and one user per account; it goes
 * with its user, and an admin may remove it (the next sign-in matches by email again).
 */
export const userIdentities = pgTable(
  "user_identities",
  {
    issuer: text("issuer").notNull(),
    subject: text("subject").notNull(),
    userId: text("user_id")
      .notNull()
      .unique()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The email the provider gave at the latest sign-in (the user's own email is the admin's to change). */
    email: text("email"),
    linkedAt: timestamptz("linked_at").notNull().defaultNow(),
    lastSignInAt: timestamptz("last_sign_in_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.issuer, t.subject] })],
);

// Service-account ids are unique per owner only, so creating one never reveals another user's.
export const serviceAccounts = pgTable(
  "service_accounts",
  {
    ownerUserId: text("owner_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    id: text("id").notNull(),
    displayName: text("display_name").notNull(),
    role: text("role", { enum: ["admin", "member"] })
      .notNull()
      .default("member"),
    isActive: boolean("is_active").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.ownerUserId, t.id] })],
);

// A key belongs to a user (sa_id null) or to the service account (user_id, sa_id).
export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    serviceAccountId: text("sa_id"),
    tokenHash: text("token_hash").notNull().unique(),
    prefix: text("prefix").notNull(),
    description: text("description"),
    // `read` keys may only GET (CONTRACT §18); the bootstrap key and every earlier key are `write`.
    scope: text("scope", { enum: ["write", "read"] })
      .notNull()
      .default("write"),
    // Null: never expires.
    expiresAt: timestamptz("expires_at"),
    createdAt: createdAt(),
    lastUsedAt: timestamptz("last_used_at"),
    /** When its `key.expiring` webhook event (CONTRACT §20) was recorded: once per key. */
    expiryNoticeAt: timestamptz("expiry_notice_at"),
  },
  (t) => [
    foreignKey({
      columns: [t.userId, t.serviceAccountId],
      foreignColumns: [serviceAccounts.ownerUserId, serviceAccounts.id],
    }).onDelete("cascade"),
    index("api_keys_owner_idx").on(t.userId, t.serviceAccountId),
  ],
);

export const templateSources = pgTable(
  "template_sources",
  {
    id: text("id").primaryKey().default(sql`gen_random_uuid()`),
    scope: text("scope", { enum: ["personal", "server"] }).notNull(),
    owner: text("owner").references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    url: text("url").notNull(),
    authTokenEncrypted: text("auth_token_encrypted"),
    description: text("description"),
    /** When an operation last fetched (or revalidated) the source's catalog, and why it failed if it did. */
    catalogFetchedAt: timestamptz("catalog_fetched_at"),
    catalogError: text("catalog_error"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // NULLS NOT DISTINCT: server sources (owner null) are unique by name as well.
  (t) => [unique("template_sources_scope_owner_name_key").on(t.scope, t.owner, t.name).nullsNotDistinct()],
);

/**
 * Installed templates. `row_id` is internal; the API identity is (id, scope, owner),
 * unique with a null owner counting as a value (server templates).
 */
export const templates = pgTable(
  "templates",
  {
    rowId: text("row_id").primaryKey().default(sql`gen_random_uuid()`),
    id: text("id").notNull(),
    scope: text("scope", { enum: ["personal", "server"] }).notNull(),
    owner: text("owner").references(() => users.id, { onDelete: "cascade" }),
    ...templateContentColumns(),
    sourceName: text("source_name"),
    sourceScope: text("source_scope", { enum: ["personal", "server"] }),
    sourceOwner: text("source_owner"),
    /** The template's id inside its source (differs from `id` when installed under an alias). */
    sourceTemplateId: text("source_template_id"),
    sourceRevision: text("source_revision"),
    locallyModified: boolean("locally_modified").notNull().default(false),
    /** Update status (CONTRACT §13): the catalog's revision at the last check, and when that was. */
    latestRevision: text("latest_revision"),
    updateCheckedAt: timestamptz("update_checked_at"),
    installedAt: timestamptz("installed_at").notNull().defaultNow(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique("templates_id_scope_owner_key").on(t.id, t.scope, t.owner).nullsNotDistinct(),
    index("templates_scope_owner_category_idx").on(t.scope, t.owner, t.category, t.id),
    index("templates_tags_idx").using("gin", t.tags),
  ],
);

/**
 * Marketplace responses, shared by every process. Keyed by URL and a hash of the
 * credential used, so a body fetched with one user's token never serves another.
 */
export const marketplaceCache = pgTable("marketplace_cache", {
  cacheKey: text("cache_key").primaryKey(),
  url: text("url").notNull(),
  body: text("body").notNull(),
  etag: text("etag"),
  lastModified: text("last_modified"),
  fetchedAt: timestamptz("fetched_at").notNull(),
  /** Last time an operation read or wrote the entry; entries unused for 7 days are pruned (CONTRACT §12). */
  usedAt: timestamptz("used_at").notNull().defaultNow(),
});

/**
 * Single flight across processes (CONTRACT §12): the process that holds a key's lease
 * fetches that URL upstream; the others wait for its cache write instead of fetching too.
 */
export const marketplaceFetchLeases = pgTable("marketplace_fetch_leases", {
  cacheKey: text("cache_key").primaryKey(),
  holder: text("holder").notNull(),
  expiresAt: timestamptz("expires_at").notNull(),
});

/** The embedded bank store (CONTRACT §8). Banks outlive their owner's account (owner set null). */
export const banks = pgTable(
  "banks",
  {
    id: text("id").primaryKey(),
    owner: text("owner").references(() => users.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    /** Per-bank config overrides, merged field by field by each import. */
    config: json("config").$type<Record<string, unknown>>().notNull().default({}),
    lastAppliedTemplate: text("last_applied_template"),
    /**
     * The row of that template (templates.row_id; no foreign key, the template may go): a `personal/`
     * ref names the applying user's template, so only the row says which one, for `behind` and `?template=`.
     */
    lastAppliedTemplateRow: text("last_applied_template_row"),
    lastAppliedRevision: text("last_applied_revision"),
    /** The template's version number (CONTRACT §13) and its locally_modified flag when applied (§16); null before §16. */
    lastAppliedVersion: integer("last_applied_version"),
    lastAppliedLocallyModified: boolean("last_applied_locally_modified"),
    lastAppliedAt: timestamptz("last_applied_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // GET /banks?template= and a rollout's selection (CONTRACT §16).
  (t) => [index("banks_last_applied_template_row_idx").on(t.lastAppliedTemplateRow, t.id)],
);

/** Mental models of a bank, matched by id; `position` keeps the order they were first added in. */
export const bankMentalModels = pgTable(
  "bank_mental_models",
  {
    bankId: text("bank_id")
      .notNull()
      .references(() => banks.id, { onDelete: "cascade" }),
    id: text("id").notNull(),
    entry: json("entry").$type<Record<string, unknown>>().notNull(),
    position: integer("position").notNull(),
  },
  (t) => [primaryKey({ columns: [t.bankId, t.id] })],
);

/** Directives of a bank, matched by name. */
export const bankDirectives = pgTable(
  "bank_directives",
  {
    bankId: text("bank_id")
      .notNull()
      .references(() => banks.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    entry: json("entry").$type<Record<string, unknown>>().notNull(),
    position: integer("position").notNull(),
  },
  (t) => [primaryKey({ columns: [t.bankId, t.name] })],
);

/**
 * One policy document per bank id; no foreign key, because a policy may precede its bank (and the
 * remote store's banks have no row here). Deleting a bank deletes its policy (CONTRACT §19).
 */
export const bankPolicies = pgTable("bank_policies", {
  bankId: text("bank_id").primaryKey(),
  document: json("document").$type<Record<string, unknown>>().notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * Console sessions (CONTRACT §11). The session cookie names a row here; deleting the row
 * ends that session on its next request in every process. Rows go with their user, so a
 * user created later with the same id never inherits a session.
 */
export const consoleSessions = pgTable(
  "console_sessions",
  {
    /** The secret the session token carries as `sid`: never in an answer or an audit entry. */
    id: text("id").primaryKey(),
    /** The session's name in the API and the audit log: random, but knowing it grants nothing. */
    publicId: text("public_id").notNull().unique().default(sql`('ses_' || replace(gen_random_uuid()::text, '-', ''))`),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    expiresAt: timestamptz("expires_at").notNull(),
    /** Moved forward at most once a minute, when the session is verified. */
    lastSeenAt: timestamptz("last_seen_at").notNull().defaultNow(),
    /** The browser reduced to a short label ("Chromium on Linux"); never the raw User-Agent. */
    browser: text("browser"),
  },
  (t) => [index("console_sessions_user_idx").on(t.userId)],
);

/**
 * Fixed-window counters of failed attempts, shared by every process (CONTRACT §11).
 * `bucket` names the limit (lib/services/ratelimit/limits.ts).
 */
export const rateLimits = pgTable(
  "rate_limits",
  {
    bucket: text("bucket").notNull(),
    key: text("key").notNull(),
    windowStart: timestamptz("window_start").notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.key] })],
);

/**
 * Where each user last signed in successfully (CONTRACT §18): a user id that signed in from an
 * address within 30 days passes that address's limit on failed sign-ins, so an attacker
 * failing from a shared address (an office NAT) does not lock out the people who work there.
 * One row per (user, client address as lib/platform/client-address.ts keys it), upserted on
 * each sign-in; rows older than 30 days are pruned. Rows go with their user.
 */
export const signInAddresses = pgTable(
  "sign_in_addresses",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    address: text("address").notNull(),
    lastSuccessAt: timestamptz("last_success_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.address] }), index("sign_in_addresses_last_success_idx").on(t.lastSuccessAt)],
);

/**
 * Every write of a template's content (CONTRACT §13), numbered from 1 per template; the
 * newest 50 are kept. Rows go with their template.
 */
export const templateVersions = pgTable(
  "template_versions",
  {
    templateRowId: text("template_row_id")
      .notNull()
      .references(() => templates.rowId, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    action: text("action", { enum: ["create", "install", "patch", "update", "merge", "rollback"] }).notNull(),
    actor: text("actor").notNull(),
    createdAt: createdAt(),
    ...templateContentColumns(),
    sourceRevision: text("source_revision"),
    locallyModified: boolean("locally_modified").notNull(),
    /** The version a rollback restored; null for every other action. */
    restoredVersion: integer("restored_version"),
    /**
     * The source's content at `source_revision` (as an update preview's `latest`), kept when the
     * version's own content differs from it while it came from that revision: an update that
     * merged in local edits, and a rollback to such a version. The next merge starts from it
     * (lib/services/templates/merge-base.ts). Null otherwise: without local edits the version's
     * content is the source's.
     */
    sourceContent: json("source_content").$type<TemplateContent>(),
  },
  (t) => [primaryKey({ columns: [t.templateRowId, t.version] })],
);

/**
 * Jobs that must run one at a time however many processes run (the scheduled update
 * check): the process holding the lease runs it; `finished_at` spaces the runs.
 */
export const jobLeases = pgTable("job_leases", {
  job: text("job").primaryKey(),
  holder: text("holder"),
  leaseUntil: timestamptz("lease_until"),
  finishedAt: timestamptz("finished_at"),
});

/**
 * One row per real import into a bank (CONTRACT §14), newest read first. No foreign key:
 * banks of the remote store (Hindsight) have history too but no row in `banks`.
 */
export const bankImports = pgTable(
  "bank_imports",
  {
    id: text("id").primaryKey().default(sql`gen_random_uuid()`),
    bankId: text("bank_id").notNull(),
    template: text("template").notNull(),
    /** The template's row (templates.row_id), as banks.last_applied_template_row; null before §16. */
    templateRow: text("template_row"),
    sourceRevision: text("source_revision"),
    /** The template's version and locally_modified flag when applied (CONTRACT §16); null on entries written before §16. */
    templateVersion: integer("template_version"),
    locallyModified: boolean("locally_modified"),
    appliedAt: timestamptz("applied_at").notNull().defaultNow(),
    actor: text("actor").notNull(),
    importResult: json("import_result").$type<Record<string, unknown>>().notNull(),
    /**
     * The bank's content right after this import, as its store reported it (CONTRACT §21): `{config,
     * mental_models, directives}`, what the bank's `locally_modified` compares with. Null on entries
     * written before §21 (migration 0015 filled it in for each embedded bank's newest import).
     */
    content: json("content").$type<Record<string, unknown>>(),
    /**
     * The bank's content right after an import that merged (CONTRACT §21 `merge`), when it kept local
     * edits: `content` then holds what the template alone wrote over the previous apply (the next
     * merge's base, what `locally_modified` compares with), this what the bank held. Null otherwise:
     * the bank then held `content`. A restore puts back this, else `content`.
     */
    written: json("written").$type<Record<string, unknown>>(),
  },
  (t) => [index("bank_imports_bank_idx").on(t.bankId, t.appliedAt)],
);

/**
 * Every edit of a bank's content or name in place (CONTRACT §21): entries of the bank's history with
 * what the edit touched before and after (`{name?, config?, mental_models?, directives?}`, lib/services/banks/edits.ts).
 * No foreign key, as for its imports (the remote store's banks have no row here); they go with the bank.
 */
export const bankEdits = pgTable(
  "bank_edits",
  {
    id: text("id").primaryKey().default(sql`gen_random_uuid()`),
    bankId: text("bank_id").notNull(),
    actor: text("actor").notNull(),
    at: timestamptz("at").notNull().defaultNow(),
    before: json("before").$type<Record<string, unknown>>().notNull(),
    after: json("after").$type<Record<string, unknown>>().notNull(),
  },
  (t) => [index("bank_edits_bank_idx").on(t.bankId, t.at)],
);

/**
 * Every restore of a bank's content (CONTRACT §21, POST P/banks/{bank_id}/restore): entries of the bank's
 * history naming the entry whose content it put back, with the content it left (`{config, mentalModels,
 * directives}` as its store reported it, as bank_imports.content), so a later restore can start from it.
 * No foreign key, as for its imports; they go with the bank.
 */
export const bankRestores = pgTable(
  "bank_restores",
  {
    id: text("id").primaryKey().default(sql`gen_random_uuid()`),
    bankId: text("bank_id").notNull(),
    actor: text("actor").notNull(),
    at: timestamptz("at").notNull().defaultNow(),
    /** The history entry (an import, an edit or a restore of this bank) whose content was put back. No foreign key: ids only name entries. */
    restoredFrom: text("restored_from").notNull(),
    content: json("content").$type<Record<string, unknown>>().notNull(),
  },
  (t) => [index("bank_restores_bank_idx").on(t.bankId, t.at)],
);

/**
 * Every PUT and DELETE of a bank's policy (CONTRACT §16): entries of the bank's history with the
 * document before and after (null: none). No foreign key, as for the policies themselves, which may
 * precede their bank; they go when the bank is deleted, as its policy does (CONTRACT §19).
 */
export const bankPolicyChanges = pgTable(
  "bank_policy_changes",
  {
    id: text("id").primaryKey().default(sql`gen_random_uuid()`),
    bankId: text("bank_id").notNull(),
    actor: text("actor").notNull(),
    at: timestamptz("at").notNull().defaultNow(),
    before: json("before").$type<Record<string, unknown>>(),
    after: json("after").$type<Record<string, unknown>>(),
    /** The entry a restore put back (POST P/banks/{bank_id}/policy/restore); null for a plain PUT or DELETE. No foreign key: ids only name entries. */
    restoredFrom: text("restored_from"),
  },
  (t) => [index("bank_policy_changes_bank_idx").on(t.bankId, t.at)],
);

/**
 * The audit log (CONTRACT §14): one entry per successful write through the API, written in
 * the write's own transaction. `seq` orders entries (and pages them) newest first.
 */
export const auditEntries = pgTable(
  "audit_entries",
  {
    seq: bigserial("seq", { mode: "number" }).primaryKey(),
    id: text("id").notNull().unique().default(sql`gen_random_uuid()`),
    at: timestamptz("at").notNull().defaultNow(),
    // The columns keep the API's word for the writer (principal_type, principal_id); the code says actor.
    actorType: text("principal_type", { enum: ["user", "service_account"] }).notNull(),
    actorId: text("principal_id").notNull(),
    userId: text("user_id").notNull(),
    action: text("action").notNull(),
    target: text("target").notNull(),
    /** What the entry is about (CONTRACT §17); null on entries written before §17. */
    targetType: text("target_type"),
    targetId: text("target_id"),
    /** The resource as the API answered it before and after the write, secrets removed (json: keys in order). */
    before: json("before"),
    after: json("after"),
    requestId: text("request_id").notNull(),
  },
  (t) => [
    index("audit_entries_principal_idx").on(t.actorId, t.seq),
    index("audit_entries_target_idx").on(t.target, t.seq),
    index("audit_entries_action_idx").on(t.action, t.seq),
    index("audit_entries_target_type_idx").on(t.targetType, t.seq),
    index("audit_entries_at_idx").on(t.at),
  ],
);

/**
 * Stored answers of writes sent with an `Idempotency-Key` (CONTRACT §18), one per key of one
 * actor: `principal_sa` (actorSa) is the service account's id, or '' for the user itself (sa_id is
 * null for users, so it cannot be part of the key). `state`: `running` from the claim before the
 * handler, `written` once the write's own transaction committed (set in that transaction), `done`
 * with the answer stored. A user's or service account's rows go with it (foreign keys cascade).
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    serviceAccountId: text("sa_id"),
    actorSa: text("principal_sa").notNull(),
    key: text("key").notNull(),
    /** Method, path with query and a hash of the body: what the key was first used for. */
    fingerprint: text("fingerprint").notNull(),
    state: text("state", { enum: ["running", "written", "done"] }).notNull(),
    /** The request holding the key: only it may mark, answer or release it. */
    claimId: text("claim_id").notNull(),
    /** Refreshed while the request runs: a claim not refreshed for 60 s was left by a stopped process. */
    claimedAt: timestamptz("claimed_at").notNull().defaultNow(),
    status: integer("status"),
    /** The answer's headers that matter (content-type, location, retry-after). */
    headers: json("headers").$type<Record<string, string>>(),
    body: text("body"),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.actorSa, t.key] }),
    foreignKey({
      columns: [t.userId, t.serviceAccountId],
      foreignColumns: [serviceAccounts.ownerUserId, serviceAccounts.id],
    }).onDelete("cascade"),
    index("idempotency_keys_created_idx").on(t.createdAt),
  ],
);

/**
 * What a migration that changed data has to tell the operator (how many orphan bank policies it
 * removed). A migration inserts the row; the process that starts first afterwards prints its
 * message at start-up and sets `reported_at`, so it is printed once (db/migrate.ts). Notices
 * (RAISE NOTICE) would reach nobody: neither driver shows them.
 */
export const migrationReports = pgTable("migration_reports", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  /** The migration's tag (db/migrations/meta/_journal.json). */
  migration: text("migration").notNull(),
  message: text("message").notNull(),
  createdAt: createdAt(),
  reportedAt: timestamptz("reported_at"),
});

/**
 * Webhooks (CONTRACT §20): a user's own (scope `personal`, going with their user) or the server's
 * (scope `server`, owner null: admin webhooks). The secret is sealed as source tokens are
 * (lib/platform/secret-box.ts); after a rotation the previous one signs as well until
 * `previous_secret_expires_at`. `failing_since` is the first failed attempt since the last
 * success: five days of that pause the webhook (`active` false, `disabled_reason` says why).
 */
export const webhooks = pgTable(
  "webhooks",
  {
    id: text("id").primaryKey(),
    scope: text("scope", { enum: ["personal", "server"] }).notNull(),
    owner: text("owner").references(() => users.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    description: text("description"),
    events: text("events").array().notNull(),
    active: boolean("active").notNull().default(true),
    disabledReason: text("disabled_reason"),
    failingSince: timestamptz("failing_since"),
    secretEncrypted: text("secret_encrypted").notNull(),
    previousSecretEncrypted: text("previous_secret_encrypted"),
    previousSecretExpiresAt: timestamptz("previous_secret_expires_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("webhooks_owner_idx").on(t.scope, t.owner, t.createdAt)],
);

/**
 * The outbox (CONTRACT §20): an event, recorded in the transaction of the change it tells of,
 * with the body every delivery of it sends (signed as it is). Only events some webhook receives
 * are kept; they go with their last delivery (lib/services/webhooks/prune.ts).
 */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    /** `msg_…`: the `webhook-id` header of each of its deliveries. */
    id: text("id").primaryKey(),
    type: text("type").notNull(),
    /** `{type, timestamp, data}` as JSON text, exactly as sent and signed. */
    body: text("body").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("webhook_events_created_idx").on(t.createdAt)],
);

/**
 * Delivery attempts of events to webhooks, the queue and the log in one: an attempt is recorded
 * `pending` when it falls due (the first with its event, each retry when the one before failed,
 * a redelivery when asked for) and a server process claims it (`claimed_by` until
 * `claimed_until`: `FOR UPDATE SKIP LOCKED`, so each goes out once), sends it and records how it went.
 * `retries` false: a ping or a redelivery, tried once. `seq` orders the log newest first.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    seq: bigserial("seq", { mode: "number" }).primaryKey(),
    id: text("id").notNull().unique().default(sql`('dlv_' || replace(gen_random_uuid()::text, '-', ''))`),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    eventId: text("event_id")
      .notNull()
      .references(() => webhookEvents.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    retries: boolean("retries").notNull().default(true),
    status: text("status", { enum: ["pending", "succeeded", "failed"] }).notNull(),
    dueAt: timestamptz("due_at").notNull(),
    /** When the attempt was made; null while pending. */
    at: timestamptz("at"),
    responseStatus: integer("response_status"),
    durationMs: integer("duration_ms"),
    error: text("error"),
    /** The start of the receiver's answer (at most 4 KiB). */
    responseBody: text("response_body"),
    claimedBy: text("claimed_by"),
    claimedUntil: timestamptz("claimed_until"),
  },
  (t) => [
    index("webhook_deliveries_due_idx").on(t.dueAt).where(sql`${t.status} = 'pending'`),
    index("webhook_deliveries_webhook_idx").on(t.webhookId, t.seq),
    index("webhook_deliveries_event_idx").on(t.eventId),
    index("webhook_deliveries_due_at_idx").on(t.dueAt),
  ],
);
