import "server-only";
import { and, asc, eq } from "drizzle-orm";
import type { z } from "zod";
import { isForeignKeyViolation, isUniqueViolation } from "@/db/errors";
import { serviceAccounts } from "@/db/schema";
import { conflict, forbidden, notFound } from "@/lib/contracts/errors";
import { iso } from "@/lib/contracts/fields";
import type { CreateServiceAccountRequest, ServiceAccount } from "@/lib/contracts/identity/schemas";
import { assertRoomFor } from "@/lib/services/bounds/owner-bounds";
import { type ServiceContext, withTransaction } from "@/lib/services/context";
import { actorChangesSettled, invalidateActors } from "./actor-cache";

type ServiceAccountRow = typeof serviceAccounts.$inferSelect;

function present(row: ServiceAccountRow): z.input<typeof ServiceAccount> {
  return {
    id: row.id,
    owner_user_id: row.ownerUserId,
    display_name: row.displayName,
    role: row.role,
    is_active: row.isActive,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

const owned = (ownerUserId: string, id: string) => and(eq(serviceAccounts.ownerUserId, ownerUserId), eq(serviceAccounts.id, id));

/** The caller's service accounts (those acting for `ctx.actor.userId`). */
export async function listServiceAccounts(ctx: ServiceContext) {
  const rows = await ctx.db
    .select()
    .from(serviceAccounts)
    .where(eq(serviceAccounts.ownerUserId, ctx.actor.userId))
    .orderBy(asc(serviceAccounts.id));
  return rows.map(present);
}

/** A service account acting for the caller. */
export async function createServiceAccount(ctx: ServiceContext, input: z.output<typeof CreateServiceAccountRequest>) {
  const caller = ctx.actor;
  const role = input.role ?? "member";
  if (role === "admin" && caller.role !== "admin") throw forbidden("Only an admin may create an admin service account.");
  try {
    return await withTransaction(ctx, async (tx) => {
      await assertRoomFor(tx.db, "serviceAccounts", caller.userId);
      const [inserted] = await tx.db
        .insert(serviceAccounts)
        .values({ ownerUserId: caller.userId, id: input.id, displayName: input.display_name ?? input.id, role })
        .returning();
      const account = present(inserted!);
      await tx.audit.record({
        action: "service_account.create",
        target: { type: "service_account", id: account.id },
        before: null,
        after: account,
      });
      return account;
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw conflict(
        `You already have a service account ${input.id}.`,
        [{ path: "id", message: "is taken by another of your service accounts" }],
        "id-taken",
      );
    }
    // The caller's own user row was deleted while the request ran.
    if (isForeignKeyViolation(error)) throw notFound(`No user ${caller.userId} exists.`);
    throw error;
  }
}

const notYours = (id: string) => notFound(`You have no service account ${id}.`);

/** One of the caller's service accounts; 404 for another's, as for a missing one. */
export async function getServiceAccount(ctx: ServiceContext, { id }: { id: string }) {
  const [row] = await ctx.db.select().from(serviceAccounts).where(owned(ctx.actor.userId, id)).limit(1);
  if (!row) throw notYours(id);
  return present(row);
}

/** 404 unless the service account is the caller's own (others' answer as missing ones). */
export async function assertOwnServiceAccount(ctx: ServiceContext, { id }: { id: string }): Promise<void> {
  await getServiceAccount(ctx, { id });
}

/** Deletes one of the caller's service accounts with its keys; they stop working in every process before this returns. */
export async function deleteServiceAccount(ctx: ServiceContext, { id }: { id: string }): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    const [deleted] = await tx.db.delete(serviceAccounts).where(owned(ctx.actor.userId, id)).returning();
    if (!deleted) throw notYours(id);
    await invalidateActors(tx.db);
    await tx.audit.record({
      action: "service_account.delete",
      target: { type: "service_account", id },
      before: present(deleted),
      after: null,
    });
  });
  await actorChangesSettled(ctx.db);
}
