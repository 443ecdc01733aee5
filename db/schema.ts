import { sql } from "drizzle-orm";
import {
  boolean,
  foreignKey,
  index,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
} from "drizzle-orm/pg-core";

// Millisecond precision: every timestamp leaves the API as ISO 8601 with ms and Z.
const timestamptz = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: "date" });
const createdAt = () => timestamptz("created_at").notNull().defaultNow();
const updatedAt = () => timestamptz("updated_at").notNull().defaultNow();

export const users = pgTable("users", {
  id: text("id").primaryKey(),
  displayName: text("display_name").notNull(),
  email: text("email"),
  role: text("role", { enum: ["admin", "member"] }).notNull().default("member"),
  isActive: boolean("is_active").notNull().default(true),
  passwordHash: text("password_hash"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

// Service-account ids are unique per owner only, so creating one never reveals another user's.
export const serviceAccounts = pgTable(
  "service_accounts",
  {
    ownerUserId: text("owner_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    id: text("id").notNull(),
    displayName: text("display_name").notNull(),
    role: text("role", { enum: ["admin", "member"] }).notNull().default("member"),
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
    createdAt: createdAt(),
    lastUsedAt: timestamptz("last_used_at"),
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
    id: text("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    scope: text("scope", { enum: ["personal", "server"] }).notNull(),
    owner: text("owner").references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    url: text("url").notNull(),
    authTokenEncrypted: text("auth_token_encrypted"),
    description: text("description"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // NULLS NOT DISTINCT: server sources (owner null) are unique by name as well.
  (t) => [unique("template_sources_scope_owner_name_key").on(t.scope, t.owner, t.name).nullsNotDistinct()],
);
