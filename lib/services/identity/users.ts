import "server-only";
import { and, asc, eq, gt, isNull, lte, min, ne, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "@/db/client";
import { isUniqueViolation } from "@/db/errors";
import { apiKeys, userIdentities, users } from "@/db/schema";
import { conflict, notFound } from "@/lib/contracts/errors";
import { iso } from "@/lib/contracts/fields";
import type { CreateUserRequest, UpdateUserRequest, User } from "@/lib/contracts/identity/schemas";
import { type ServiceContext, withTransaction } from "@/lib/services/context";
import { endUserSessions } from "@/lib/services/identity/session-store";
import { checkPrecondition } from "@/lib/services/preconditions";
import { actorChangesSettled, invalidateActors } from "./actor-cache";
import { hashPassword } from "./passwords";

type UserRow = typeof users.$inferSelect;
type IdentityRow = typeof userIdentities.$inferSelect;
/** A user with their single-sign-on link (null: none), as the API presents them. */
export interface LinkedUser {
  user: UserRow;
  identity: IdentityRow | null;
}

export function presentUser({ user: row, identity }: LinkedUser): z.input<typeof User> {
  return {
    id: row.id,
    display_name: row.displayName,
    email: row.email,
    role: row.role,
    is_active: row.isActive,
    has_password: row.passwordHash !== null,
    sso_identity: identity && {
      issuer: identity.issuer,
      subject: identity.subject,
      email: identity.email,
      linked_at: iso(identity.linkedAt),
      last_sign_in_at: iso(identity.lastSignInAt),
    },
    last_sign_in_at: row.lastSignInAt && iso(row.lastSignInAt),
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

/** Users with their single-sign-on links, as one query; `where` narrows it. */
export const selectLinkedUsers = (db: Database) =>
  db.select({ user: users, identity: userIdentities }).from(users).leftJoin(userIdentities, eq(userIdentities.userId, users.id));

export async function listUsers(ctx: ServiceContext, query: { keys_expiring_within_days?: number } = {}) {
  const days = query.keys_expiring_within_days;
  if (days === undefined) return (await selectLinkedUsers(ctx.db).orderBy(asc(users.id))).map(presentUser);
  // Revoking deletes a key, so a key that still works is one not yet expired; by the database's clock, as expiry is judged.
  const nextExpiry = min(apiKeys.expiresAt);
  const rows = await ctx.db
    .select({ user: users, identity: userIdentities, nextExpiry })
    .from(users)
    .leftJoin(userIdentities, eq(userIdentities.userId, users.id))
    .innerJoin(apiKeys, eq(apiKeys.userId, users.id))
    .where(
      and(
        isNull(apiKeys.serviceAccountId),
        gt(apiKeys.expiresAt, sql`now()`),
        lte(apiKeys.expiresAt, sql`now() + make_interval(days => ${days}::int)`),
      ),
    )
    .groupBy(users.id, userIdentities.issuer, userIdentities.subject)
    .orderBy(asc(users.id));
  return rows.map(({ nextExpiry, ...linked }) => ({ ...presentUser(linked), next_key_expires_at: iso(nextExpiry!) }));
}

const noSuchUser = (id: string) => notFound(`No user ${id} exists.`);

export async function findUser(db: Database, id: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

export async function getUser(ctx: ServiceContext, { id }: { id: string }) {
  const [linked] = await selectLinkedUsers(ctx.db).where(eq(users.id, id)).limit(1);
  if (!linked) throw noSuchUser(id);
  return presentUser(linked);
}

export async function createUser(ctx: ServiceContext, input: z.output<typeof CreateUserRequest>) {
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  try {
    return await withTransaction(ctx, async (tx) => {
      const [inserted] = await tx.db
        .insert(users)
        .values({
          id: input.id,
          displayName: input.display_name ?? input.id,
          email: input.email ?? null,
          role: input.role ?? "member",
          passwordHash,
        })
        .returning();
      const user = presentUser({ user: inserted!, identity: null });
      await tx.audit.record({ action: "user.create", target: { type: "user", id: user.id }, before: null, after: user });
      return user;
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw conflict(`A user ${input.id} already exists.`, [{ path: "id", message: "is taken by another user" }], "id-taken");
    }
    throw error;
  }
}

// Any key works as long as every change that can remove an active admin takes the same one.
export const ADMIN_CHANGE_LOCK = 0x61646d6e; // "admn"

/**
 * Serialises changes that can remove an active admin (demote, deactivate, delete) until the
 * transaction ends, so the last-admin check and the write see every earlier such change.
 */
export async function lockAdminChanges(db: Database): Promise<void> {
  await db.execute(sql.raw(`select pg_advisory_xact_lock(${ADMIN_CHANGE_LOCK})`));
}

/** The user row (locked until the transaction ends) with their link; 404 when it is gone. */
async function lockUser(db: Database, id: string): Promise<LinkedUser> {
  const [linked] = await selectLinkedUsers(db).where(eq(users.id, id)).for("update", { of: users });
  if (!linked) throw noSuchUser(id);
  return linked;
}

/** Whether an active admin other than `id` exists. Run under lockAdminChanges, so it stays true until the transaction ends. */
export async function anotherActiveAdminExists(db: Database, id: string): Promise<boolean> {
  const [other] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(and(eq(users.role, "admin"), eq(users.isActive, true), ne(users.id, id)));
  return (other?.n ?? 0) > 0;
}

/** Refuses to leave the server without an active admin: nobody could manage it then. Run under lockAdminChanges. */
async function assertAnotherActiveAdmin(db: Database, id: string, action: string) {
  if (!(await anotherActiveAdminExists(db, id))) {
    throw conflict(`Cannot ${action} ${id}: it is the last active admin.`, undefined, "last-admin");
  }
}

/** Whether a PATCH could take an active admin away; only those wait for the admin-change lock. */
const mayRemoveAdmin = (patch: z.output<typeof UpdateUserRequest>) => patch.role === "member" || patch.is_active === false;

export async function updateUser(ctx: ServiceContext, { id, patch }: { id: string; patch: z.output<typeof UpdateUserRequest> }) {
  const changes: Partial<typeof users.$inferInsert> = {};
  if (patch.display_name !== undefined) changes.displayName = patch.display_name;
  if (patch.email !== undefined) changes.email = patch.email;
  if (patch.role !== undefined) changes.role = patch.role;
  if (patch.is_active !== undefined) changes.isActive = patch.is_active;
  // Hashing is slow on purpose: done before the transaction, so no lock waits for it.
  if (patch.password !== undefined) changes.passwordHash = patch.password === null ? null : await hashPassword(patch.password);
  // A deactivated user, or one whose password an admin set or cleared, signs in again (CONTRACT §11).
  const endsSessions = patch.is_active === false || patch.password !== undefined;

  const updated = await withTransaction(ctx, async (tx) => {
    if (mayRemoveAdmin(patch)) await lockAdminChanges(tx.db);
    const locked = await lockUser(tx.db, id);
    const current = locked.user;
    const before = presentUser(locked);
    checkPrecondition(tx, before);
    const audited = (after: z.input<typeof User>) =>
      tx.audit.record({ action: "user.update", target: { type: "user", id }, before, after });
    if (Object.keys(changes).length === 0) {
      await audited(before);
      return before;
    }
    const demotes = patch.role === "member" && current.role === "admin" && current.isActive;
    const deactivates = patch.is_active === false && current.isActive && current.role === "admin";
    if (demotes || deactivates) await assertAnotherActiveAdmin(tx.db, id, demotes ? "demote" : "deactivate");

    const [row] = await tx.db
      .update(users)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(users.id, id))
      .returning();
    if (!row) throw noSuchUser(id);
    // Role, activity and name are part of the actor that keys and sessions stand for.
    if (endsSessions) await endUserSessions(tx.db, id);
    else await invalidateActors(tx.db);
    const after = presentUser({ user: row, identity: locked.identity });
    await audited(after);
    return after;
  });
  await actorChangesSettled(ctx.db);
  return updated;
}

/** Deleting a user cascades to its keys, service accounts, sources, templates and sessions. */
export async function deleteUser(ctx: ServiceContext, { id }: { id: string }): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    await lockAdminChanges(tx.db);
    const locked = await lockUser(tx.db, id);
    const before = presentUser(locked);
    checkPrecondition(tx, before);
    if (locked.user.role === "admin" && locked.user.isActive) await assertAnotherActiveAdmin(tx.db, id, "delete");
    const deleted = await tx.db.delete(users).where(eq(users.id, id)).returning({ id: users.id });
    if (deleted.length === 0) throw noSuchUser(id);
    await invalidateActors(tx.db);
    await tx.audit.record({ action: "user.delete", target: { type: "user", id }, before, after: null });
  });
  await actorChangesSettled(ctx.db);
}

/**
 * Removes a user's single-sign-on link (404 when the user or the link is not there): their next
 * single sign-on finds them by email again, or (with another account) no longer finds them.
 * Their sessions go on; to end those, deactivate the user.
 */
export async function unlinkSsoIdentity(ctx: ServiceContext, { id }: { id: string }): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    const locked = await lockUser(tx.db, id);
    if (!locked.identity) throw notFound(`User ${id} has no single-sign-on account linked.`);
    await tx.db.delete(userIdentities).where(eq(userIdentities.userId, id));
    const before = presentUser(locked);
    const after = presentUser({ ...locked, identity: null });
    await tx.audit.record({ action: "user.sso.unlink", target: { type: "user", id }, before, after });
  });
}
