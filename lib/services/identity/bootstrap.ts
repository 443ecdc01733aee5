import "server-only";
import { randomBytes } from "node:crypto";
import { and, eq, like, ne, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { apiKeys, users } from "@/db/schema";
import { BOOTSTRAP_ADMIN_ID } from "@/lib/contracts/identity/sign-in-messages";
import type { AppContext } from "@/lib/services/context";
import { actorChangesSettled, invalidateActors } from "./actor-cache";
import { hashApiKey } from "./api-keys";
import { hashPassword, verifyPassword } from "./passwords";

const BOOTSTRAP_KEY_PREFIX = "key_boot_";

/**
 * CONTRACT §1: BOOTSTRAP_ADMIN_TOKEN / BOOTSTRAP_ADMIN_PASSWORD make user `admin` exist
 * (role admin, active) with that key or password, idempotently; with neither and an empty
 * database, a generated password is printed once. Safe when two processes start together.
 * Whenever the settings make the admin, the log says in words how it signs in to the console,
 * or that it cannot yet and which setting lets it: a token alone gives no console password.
 */
export async function bootstrapIdentity(app: Pick<AppContext, "db" | "config">, log: (line: string) => void) {
  const { db, config } = app;
  const token = config.bootstrapAdminToken;
  const password = config.bootstrapAdminPassword;

  if (token || password) {
    // One transaction: the key never refers to an `admin` deleted between the two statements.
    await db.transaction(async (transaction) => {
      await transaction
        .insert(users)
        .values({ id: BOOTSTRAP_ADMIN_ID, displayName: "Administrator", role: "admin" })
        .onConflictDoUpdate({ target: users.id, set: { role: "admin", isActive: true } });
      if (token) await installBootstrapKey(transaction, token);
      // The admin may have been demoted or deactivated, and earlier bootstrap keys are revoked.
      await invalidateActors(transaction);
    });
    await actorChangesSettled(db);
    if (password) {
      // Writing the same password twice (two processes starting together) is harmless.
      const [admin] = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, BOOTSTRAP_ADMIN_ID));
      if (!(await verifyPassword(admin?.hash ?? null, password))) {
        await db
          .update(users)
          .set({ passwordHash: await hashPassword(password) })
          .where(eq(users.id, BOOTSTRAP_ADMIN_ID));
      }
      log(`User "admin" signs in to the console with the password BOOTSTRAP_ADMIN_PASSWORD gives.`);
      return;
    }
    const [admin] = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, BOOTSTRAP_ADMIN_ID));
    if (admin?.hash) log(`User "admin" signs in to the console with the password it has; BOOTSTRAP_ADMIN_TOKEN is its API key.`);
    else {
      log(
        `User "admin" has no console password yet: BOOTSTRAP_ADMIN_TOKEN gives it an API key only. ` +
          `Set BOOTSTRAP_ADMIN_PASSWORD (and start again) to sign in to the console as admin.`,
      );
    }
    return;
  }

  const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
  if (count && count.n > 0) return;
  const generated = randomBytes(12).toString("base64url");
  const created = await db
    .insert(users)
    .values({ id: BOOTSTRAP_ADMIN_ID, displayName: "Administrator", role: "admin", passwordHash: await hashPassword(generated) })
    .onConflictDoNothing()
    .returning({ id: users.id });
  if (created.length > 0) {
    log(`Created user "admin" for the console. Its password, shown only this once: ${generated}`);
  }
}

/** Makes `token` the bootstrap admin's key; changing the variable rotates it (earlier bootstrap keys stop working). */
async function installBootstrapKey(db: Database, token: string) {
  const tokenHash = hashApiKey(token);
  const id = BOOTSTRAP_KEY_PREFIX + tokenHash.slice(0, 16);
  await db.delete(apiKeys).where(and(like(apiKeys.id, `${BOOTSTRAP_KEY_PREFIX}%`), ne(apiKeys.id, id)));
  await db
    .insert(apiKeys)
    .values({ id, userId: BOOTSTRAP_ADMIN_ID, tokenHash, prefix: token.slice(0, 8), description: "BOOTSTRAP_ADMIN_TOKEN" })
    .onConflictDoNothing();
}
