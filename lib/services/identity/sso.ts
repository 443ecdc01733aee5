import "server-only";
import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { userIdentities, users } from "@/db/schema";
import type { SsoAuditAction } from "@/lib/contracts/audit-actions";
import { actorId } from "@/lib/contracts/fields";
import { logger } from "@/lib/platform/log";
import { recordSsoEntry } from "@/lib/services/audit/record";
import { invalidateActors } from "./actor-cache";
import { anotherActiveAdminExists, type LinkedUser, lockAdminChanges, presentUser, selectLinkedUsers } from "./users";

/** What the provider says about the person signing in, from its ID token and userinfo together. */
export interface SsoIdentity {
  /** The provider's `iss` and the account's `sub`: together they never change. */
  issuer: string;
  subject: string;
  email: string | null;
  /** `email_verified`; absent counts as verified (many providers vouch for every address they give and send no claim). */
  emailVerified: boolean;
  name: string | null;
  preferredUsername: string | null;
  /** The groups claim; null when the provider sent none. */
  groups: string[] | null;
}

/** What the settings allow a sign-in to do (SsoConfig). */
export interface SsoRules {
  createUsers: boolean;
  /** Members of these groups are admins, the others members; null: roles are left alone. */
  adminGroups: string[] | null;
}

/** Why a single sign-on finds no user to sign in; each is a message on the sign-in page (components/signin/sign-in-errors.ts). */
type SsoRefusal = "SsoNoEmail" | "SsoEmailUnverified" | "SsoNoUser" | "SsoAmbiguous" | "SsoInactive" | "SsoLinkedElsewhere";

export type SsoSignIn = { ok: true; user: { id: string; name: string; email: string | null } } | { ok: false; refusal: SsoRefusal };

/** How many `-2`, `-3`… a created user's id tries before it takes a random ending. */
const ID_SUFFIX_TRIES = 20;

/** Users with one email, read at most: more than one active is ambiguous anyway. */
const MAX_EMAIL_MATCHES = 10;

type Audit = (action: SsoAuditAction, before: LinkedUser | null, after: LinkedUser) => Promise<void>;
type Found = { ok: true; user: LinkedUser } | { ok: false; refusal: SsoRefusal };

/**
 * The user a single sign-on signs in as, in one transaction: the user linked to the account
 * (`iss`, `sub`); else the one user whose email is the provider's verified email, then linked;
 * else, when allowed, a new member, linked. With admin groups set, the user's role follows the
 * groups claim at every sign-in (never demoting the last active admin). Each change is an audit
 * entry whose actor is the user. The account's email and the sign-in time are kept on the link.
 */
export async function signInWithSso(db: Database, identity: SsoIdentity, rules: SsoRules, requestId: string): Promise<SsoSignIn> {
  return db.transaction(async (tx) => {
    // Taken first, as every change that can remove an admin takes it: the last-admin check below holds until commit.
    if (rules.adminGroups) await lockAdminChanges(tx);
    // Two first sign-ins of one account at once would both link (or create) a user: one waits for the other.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`sso ${identity.issuer} ${identity.subject}`}))`);
    const audit: Audit = (action, before, after) =>
      recordSsoEntry(tx, { action, userId: after.user.id, requestId, before: before && presentUser(before), after: presentUser(after) });

    let linked = await linkedUser(tx, identity);
    if (!linked) {
      const found = await userByEmail(tx, identity, rules, audit);
      if (!found.ok) return found;
      const before = found.user;
      const [identityRow] = await tx
        .insert(userIdentities)
        .values({ issuer: identity.issuer, subject: identity.subject, userId: before.user.id, email: identity.email })
        .returning();
      linked = { user: before.user, identity: identityRow! };
      await audit("user.sso.link", before, linked);
    }
    if (!linked.user.isActive) return { ok: false, refusal: "SsoInactive" };

    linked = await applyAdminGroups(tx, linked, identity, rules, audit);
    const [identityRow] = await tx
      .update(userIdentities)
      .set({ email: identity.email, lastSignInAt: sql`now()` })
      .where(and(eq(userIdentities.issuer, identity.issuer), eq(userIdentities.subject, identity.subject)))
      .returning();
    const user = linked.user;
    return { ok: true, user: { id: user.id, name: user.displayName, email: identityRow?.email ?? user.email } };
  });
}

/** The user linked to the account, locked until the transaction ends. */
async function linkedUser(db: Database, identity: SsoIdentity): Promise<LinkedUser | null> {
  const [row] = await db
    .select({ user: users, identity: userIdentities })
    .from(userIdentities)
    .innerJoin(users, eq(users.id, userIdentities.userId))
    .where(and(eq(userIdentities.issuer, identity.issuer), eq(userIdentities.subject, identity.subject)))
    .for("update");
  return row ?? null;
}

/** The one user with the account's verified email (locked), or a new member when allowed. */
async function userByEmail(db: Database, identity: SsoIdentity, rules: SsoRules, audit: Audit): Promise<Found> {
  const email = identity.email?.trim().toLowerCase();
  if (!email) return { ok: false, refusal: "SsoNoEmail" };
  if (!identity.emailVerified) return { ok: false, refusal: "SsoEmailUnverified" };
  const matches = await selectLinkedUsers(db)
    .where(eq(sql`lower(${users.email})`, email))
    .limit(MAX_EMAIL_MATCHES)
    .for("update", { of: users });
  // A deactivated user beside an active one with the same email is an old account: the active one is meant.
  const active = matches.filter((match) => match.user.isActive);
  if (active.length > 1) return { ok: false, refusal: "SsoAmbiguous" };
  const [match] = active;
  if (match) {
    // Linked to another account already: an admin unlinks it first, so one email cannot take over a user.
    if (match.identity) return { ok: false, refusal: "SsoLinkedElsewhere" };
    return { ok: true, user: match };
  }
  // Only deactivated users have it: no new account beside them.
  if (matches.length > 0) return { ok: false, refusal: "SsoInactive" };
  if (!rules.createUsers) return { ok: false, refusal: "SsoNoUser" };
  return { ok: true, user: await createSsoUser(db, identity, email, audit) };
}

/** A new member for the account: its id from `preferred_username` or the email, made valid and unique. */
async function createSsoUser(db: Database, identity: SsoIdentity, email: string, audit: Audit): Promise<LinkedUser> {
  const base = userIdCandidate(identity.preferredUsername) ?? userIdCandidate(email) ?? "user";
  for (let attempt = 1; ; attempt++) {
    const id = attempt === 1 ? base : withSuffix(base, attempt <= ID_SUFFIX_TRIES ? String(attempt) : randomUUID().slice(0, 8));
    const [created] = await db
      .insert(users)
      .values({ id, displayName: identity.name?.trim() || identity.preferredUsername?.trim() || id, email, role: "member" })
      .onConflictDoNothing({ target: users.id })
      .returning();
    if (created) {
      const user = { user: created, identity: null };
      await audit("user.sso.create", null, user);
      return user;
    }
  }
}

/**
 * A user id (CONTRACT §2: 1-64 of a-z, 0-9, '.', '_', '@', '-', starting with a letter or
 * digit) made from a provider's name for someone: lower-cased, other characters as '-', cut
 * to length; null when nothing usable is left.
 */
export function userIdCandidate(name: string | null | undefined): string | null {
  const id = (name ?? "")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9._@-]+/g, "-")
    .replace(/^[^a-z0-9]+/, "")
    .slice(0, 64)
    .replace(/[-.]+$/, "");
  return actorId.safeParse(id).success ? id : null;
}

const withSuffix = (base: string, suffix: string) => `${base.slice(0, 63 - suffix.length)}-${suffix}`;

/**
 * With admin groups set: admin when the groups claim names one of them, member otherwise,
 * audited as `user.sso.role`. A demotion that would leave no active admin is not made (the
 * invariant every other change keeps, under the same lock); the sign-in goes on.
 */
async function applyAdminGroups(
  db: Database,
  linked: LinkedUser,
  identity: SsoIdentity,
  rules: SsoRules,
  audit: Audit,
): Promise<LinkedUser> {
  if (!rules.adminGroups) return linked;
  const groups = new Set(identity.groups ?? []);
  const role = rules.adminGroups.some((group) => groups.has(group)) ? "admin" : "member";
  const { user } = linked;
  if (user.role === role) return linked;
  if (role === "member" && !(await anotherActiveAdminExists(db, user.id))) {
    logger.warn({ user_id: user.id }, "single sign-on left the last active admin an admin although their groups name no admin group");
    return linked;
  }
  const [updated] = await db.update(users).set({ role, updatedAt: new Date() }).where(eq(users.id, user.id)).returning();
  const after = { user: updated!, identity: linked.identity };
  await invalidateActors(db);
  await audit("user.sso.role", linked, after);
  return after;
}
