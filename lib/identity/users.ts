import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "@/db/client";
import { users } from "@/db/schema";
import { iso } from "@/lib/api/fields";
import { conflict, notFound } from "@/lib/http/errors";
import { isUniqueViolation } from "@/db/errors";
import { hashPassword } from "./passwords";
import type { CreateUserRequest, UpdateUserRequest, User } from "./schemas";

type UserRow = typeof users.$inferSelect;

export function presentUser(row: UserRow): z.input<typeof User> {
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

export async function findUser(db: Database, id: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

export async function getUser(db: Database, id: string) {
  const row = await findUser(db, id);
  if (!row) throw notFound(`No user ${id} exists.`);
  return presentUser(row);
}

export async function createUser(db: Database, input: z.output<typeof CreateUserRequest>) {
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  try {
    const [row] = await db
      .insert(users)
      .values({
        id: input.id,
        displayName: input.display_name ?? input.id,
        email: input.email ?? null,
        role: input.role ?? "member",
        passwordHash,
      })
      .returning();
    return presentUser(row!);
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw conflict(`A user ${input.id} already exists.`, [{ path: "id", message: "is taken by another user" }]);
    }
    throw error;
  }
}

/** Refuses to leave the server without an active admin: nobody could manage it then. */
async function assertAnotherActiveAdmin(db: Database, id: string, action: string) {
  const [other] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(and(eq(users.role, "admin"), eq(users.isActive, true), ne(users.id, id)));
  if (!other || other.n === 0) throw conflict(`Cannot ${action} ${id}: it is the last active admin.`);
}

export async function updateUser(db: Database, id: string, patch: z.output<typeof UpdateUserRequest>) {
  const current = await findUser(db, id);
  if (!current) throw notFound(`No user ${id} exists.`);
  const demotes = patch.role === "member" && current.role === "admin";
  const deactivates = patch.is_active === false && current.isActive && current.role === "admin";
  if (demotes || deactivates) await assertAnotherActiveAdmin(db, id, demotes ? "demote" : "deactivate");

  const changes: Partial<typeof users.$inferInsert> = {};
  if (patch.display_name !== undefined) changes.displayName = patch.display_name;
  if (patch.email !== undefined) changes.email = patch.email;
  if (patch.role !== undefined) changes.role = patch.role;
  if (patch.is_active !== undefined) changes.isActive = patch.is_active;
  if (patch.password !== undefined) changes.passwordHash = patch.password === null ? null : await hashPassword(patch.password);
  if (Object.keys(changes).length === 0) return presentUser(current);
  const [row] = await db
    .update(users)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  return presentUser(row!);
}

/** Deleting a user cascades to its keys, service accounts, sources and templates. */
export async function deleteUser(db: Database, id: string): Promise<void> {
  const current = await findUser(db, id);
  if (!current) throw notFound(`No user ${id} exists.`);
  if (current.role === "admin" && current.isActive) await assertAnotherActiveAdmin(db, id, "delete");
  await db.delete(users).where(eq(users.id, id));
}
