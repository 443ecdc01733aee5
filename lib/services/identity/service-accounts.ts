import "server-only";
import { and, asc, eq } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "@/db/client";
import { isForeignKeyViolation, isUniqueViolation } from "@/db/errors";
import { serviceAccounts } from "@/db/schema";
import { conflict, forbidden, notFound } from "@/lib/contracts/errors";
import { iso } from "@/lib/contracts/fields";
import type { CreateServiceAccountRequest, ServiceAccount } from "@/lib/contracts/identity/schemas";
import { recordAudit } from "@/lib/services/audit/record";
import type { Principal } from "./principal";
import { invalidatePrincipals, principalChangesSettled } from "./principal-cache";

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

export async function listServiceAccounts(db: Database, ownerUserId: string) {
  const rows = await db.select().from(serviceAccounts).where(eq(serviceAccounts.ownerUserId, ownerUserId)).orderBy(asc(serviceAccounts.id));
  return rows.map(present);
}

export async function createServiceAccount(db: Database, caller: Principal, input: z.output<typeof CreateServiceAccountRequest>) {
  const role = input.role ?? "member";
  if (role === "admin" && caller.role !== "admin") throw forbidden("Only an admin may create an admin service account.");
  try {
    const row = await db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(serviceAccounts)
        .values({ ownerUserId: caller.userId, id: input.id, displayName: input.display_name ?? input.id, role })
        .returning();
      await recordAudit(tx);
      return inserted!;
    });
    return present(row);
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

/** 404 unless the service account is the caller's own (others' answer as missing ones). */
export async function assertOwnServiceAccount(db: Database, ownerUserId: string, id: string): Promise<void> {
  const [row] = await db.select({ id: serviceAccounts.id }).from(serviceAccounts).where(owned(ownerUserId, id)).limit(1);
  if (!row) throw notFound(`You have no service account ${id}.`);
}

/** Deletes a service account with its keys; they stop working in every process before this returns. */
export async function deleteServiceAccount(db: Database, ownerUserId: string, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const deleted = await tx.delete(serviceAccounts).where(owned(ownerUserId, id)).returning({ id: serviceAccounts.id });
    if (deleted.length === 0) throw notFound(`You have no service account ${id}.`);
    await invalidatePrincipals(tx);
    await recordAudit(tx);
  });
  await principalChangesSettled(db);
}
