import { randomBytes } from "node:crypto";
import { and, eq, like, ne, sql } from "drizzle-orm";
import { apiKeys, users } from "@/db/schema";
import type { AppContext } from "@/lib/server/app";
import { hashApiKey } from "./api-keys";
import { hashPassword, verifyPassword } from "./passwords";

const ADMIN_ID = "admin";
const BOOTSTRAP_KEY_PREFIX = "key_boot_";

/**
 * CONTRACT §1: BOOTSTRAP_ADMIN_TOKEN / BOOTSTRAP_ADMIN_PASSWORD make user `admin` exist
 * (role admin, active) with that key or password, idempotently; with neither and an empty
 * database, a generated password is printed once. Safe when two processes start together.
 */
export async function bootstrapIdentity(app: Pick<AppContext, "db" | "config">, log: (line: string) => void) {
  const { db, config } = app;
  const token = config.bootstrapAdminToken;
  const password = config.bootstrapAdminPassword;

  if (token || password) {
    await db
      .insert(users)
      .values({ id: ADMIN_ID, displayName: "Administrator", role: "admin" })
      .onConflictDoUpdate({ target: users.id, set: { role: "admin", isActive: true } });
    if (token) {
      const tokenHash = hashApiKey(token);
      const id = BOOTSTRAP_KEY_PREFIX + tokenHash.slice(0, 16);
      // Changing the variable rotates the key: earlier bootstrap keys stop working.
      await db.delete(apiKeys).where(and(like(apiKeys.id, `${BOOTSTRAP_KEY_PREFIX}%`), ne(apiKeys.id, id)));
      await db
        .insert(apiKeys)
        .values({ id, userId: ADMIN_ID, tokenHash, prefix: token.slice(0, 8), description: "BOOTSTRAP_ADMIN_TOKEN" })
        .onConflictDoNothing();
    }
    if (password) {
      const [admin] = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, ADMIN_ID));
      if (!(await verifyPassword(admin?.hash ?? null, password))) {
        await db.update(users).set({ passwordHash: await hashPassword(password) }).where(eq(users.id, ADMIN_ID));
      }
    }
    return;
  }

  const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
  if (count && count.n > 0) return;
  const generated = randomBytes(12).toString("base64url");
  const created = await db
    .insert(users)
    .values({ id: ADMIN_ID, displayName: "Administrator", role: "admin", passwordHash: await hashPassword(generated) })
    .onConflictDoNothing()
    .returning({ id: users.id });
  if (created.length > 0) {
    log(`Created user "admin" for the console. Its password, shown only this once: ${generated}`);
  }
}
