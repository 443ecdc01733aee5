import "server-only";
import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "@/db/client";
import { isUniqueViolation } from "@/db/errors";
import { users } from "@/db/schema";
import { conflict, notFound } from "@/lib/contracts/errors";
import { iso } from "@/lib/contracts/fields";
import type { CreateUserRequest, UpdateUserRequest, User } from "@/lib/contracts/identity/schemas";
import { recordAudit } from "@/lib/services/audit/record";
import { endUserSessions } from "@/lib/services/identity/session-store";
import { hashPassword } from "./passwords";
import { invalidatePrincipals, principalChangesSettled } from "./principal-cache";

type UserRow = typeof users.$inferSelect;

function presentUser(row: UserRow): z.input<typeof User> {
  return {
    id: row.id,
    display_name: row.displayName,
    email: row.email,
    role: row.role,
    is_active: row.isActive,
    has_password: row.passwordHash !== null,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

export async function listUsers(db: Database) {
  return (await db.select().from(users).orderBy(asc(users.id))).map(presentUser);
}

const noSuchUser = (id: string) => notFound(`No user ${id} exists.`);

export async function findUser(db: Database, id: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

export async function getUser(db: Database, id: string) {
  const row = await findUser(db, id);
  if (!row) throw noSuchUser(id);
  return presentUser(row);
}

export async function createUser(db: Database, input: z.output<typeof CreateUserRequest>) {
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  try {
    const row = await db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(users)
        .values({
          id: input.id,
          displayName: input.display_name ?? input.id,
          email: input.email ?? null,
          role: input.role ?? "member",
          passwordHash,
        })
        .returning();
      await recordAudit(tx);
      return inserted!;
    });
    return presentUser(row);
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
async function lockAdminChanges(tx: Database): Promise<void> {
  await tx.execute(sql.raw(`select pg_advisory_xact_lock(${ADMIN_CHANGE_LOCK})`));
}

/** The user row, locked until the transaction ends; 404 when it is gone. */
async function lockUser(tx: Database, id: string): Promise<UserRow> {
  const [row] = await tx.select().from(users).where(eq(users.id, id)).for("update");
  if (!row) throw noSuchUser(id);
  return row;
}

/** Refuses to leave the server without an active admin: nobody could manage it then. Run under lockAdminChanges. */
async function assertAnotherActiveAdmin(tx: Database, id: string, action: string) {
  const [other] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(and(eq(users.role, "admin"), eq(users.isActive, true), ne(users.id, id)));
  if (!other || other.n === 0) {
    throw conflict(`Cannot ${action} ${id}: it is the last active admin.`, undefined, "last-admin");
  }
}

/** Whether a PATCH could take an active admin away; only those wait for the admin-change lock. */
const mayRemoveAdmin = (patch: z.output<typeof UpdateUserRequest>) => patch.role === "member" || patch.is_active === false;

export async function updateUser(db: Database, id: string, patch: z.output<typeof UpdateUserRequest>) {
  const changes: Partial<typeof users.$inferInsert> = {};
  if (patch.display_name !== undefined) changes.displayName = patch.display_name;
  if (patch.email !== undefined) changes.email = patch.email;
  if (patch.role !== undefined) changes.role = patch.role;
  if (patch.is_active !== undefined) changes.isActive = patch.is_active;
  // Hashing is slow on purpose: done before the transaction, so no lock waits for it.
  if (patch.password !== undefined) changes.passwordHash = patch.password === null ? null : await hashPassword(patch.password);
  // A deactivated user, or one whose password an admin set or cleared, signs in again (CONTRACT §11).
  const endsSessions = patch.is_active === false || patch.password !== undefined;

  const updated = await db.transaction(async (tx) => {
    if (mayRemoveAdmin(patch)) await lockAdminChanges(tx);
    const current = await lockUser(tx, id);
    await recordAudit(tx);
    if (Object.keys(changes).length === 0) return presentUser(current);
    const demotes = patch.role === "member" && current.role === "admin" && current.isActive;
    const deactivates = patch.is_active === false && current.isActive && current.role === "admin";
    if (demotes || deactivates) await assertAnotherActiveAdmin(tx, id, demotes ? "demote" : "deactivate");

    const [row] = await tx
      .update(users)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(users.id, id))
      .returning();
    if (!row) throw noSuchUser(id);
    // Role, activity and name are part of the principal that keys and sessions stand for.
    if (endsSessions) await endUserSessions(tx, id);
    else await invalidatePrincipals(tx);
    return presentUser(row);
  });
  await principalChangesSettled(db);
  return updated;
}

/** Deleting a user cascades to its keys, service accounts, sources, templates and sessions. */
export async function deleteUser(db: Database, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    await lockAdminChanges(tx);
    const current = await lockUser(tx, id);
    if (current.role === "admin" && current.isActive) await assertAnotherActiveAdmin(tx, id, "delete");
    const deleted = await tx.delete(users).where(eq(users.id, id)).returning({ id: users.id });
    if (deleted.length === 0) throw noSuchUser(id);
    await invalidatePrincipals(tx);
    await recordAudit(tx);
  });
  await principalChangesSettled(db);
}
