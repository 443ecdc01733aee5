import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openPostgres } from "@/db/client";
import { apiKeys } from "@/db/schema";
import { sessionClaims } from "@/lib/auth/session";
import { loadConfig } from "@/lib/platform/config";
import { setApp } from "@/lib/server/app";
import type { AppContext } from "@/lib/services/context";
import { actorCacheFor, startActorCache } from "@/lib/services/identity/actor-cache";
import { hashApiKey } from "@/lib/services/identity/api-keys";
import { bootstrapIdentity } from "@/lib/services/identity/bootstrap";
import { endSession } from "@/lib/services/identity/session-store";
import { ADMIN_TOKEN, request } from "./support/app";
import { mintSessionCookie } from "./support/console-sessions";
import { freshDatabase } from "./support/database";

// CONTRACT §2/§11 with the actor cache (lib/services/identity/actor-cache.ts): a change made
// through one process holds for the very next request through another. On PostgreSQL two
// application instances with their own pools and listeners share one database; on PGlite one
// process invalidates in place.
const onPostgres = process.env.TEST_DB === "postgres";

let first: AppContext;
let second: AppContext;
const handles: DatabaseHandle[] = [];
let closeDatabase: () => Promise<void> = async () => {};

function appOn(handle: DatabaseHandle, secretKey: Buffer): AppContext {
  const config = loadConfig({ BOOTSTRAP_ADMIN_TOKEN: ADMIN_TOKEN, DATA_DIR: "/nonexistent" });
  return { config, db: handle.db, database: handle, secretKey };
}

beforeAll(async () => {
  const database = await freshDatabase();
  closeDatabase = database.close;
  const secretKey = randomBytes(32);
  await startActorCache(database.handle);
  first = appOn(database.handle, secretKey);
  if (onPostgres) {
    const other = await openPostgres(database.url!);
    handles.push(other);
    await startActorCache(other);
    second = appOn(other, secretKey);
  } else {
    second = first;
  }
  await bootstrapIdentity(first, () => {});
  // A process serves from its cache only once its listener is confirmed and known to its peers.
  const deadline = Date.now() + 15_000;
  while (![first, second].every((app) => actorCacheFor(app.db)?.serving())) {
    if (Date.now() > deadline) throw new Error("the actor caches never became ready");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}, 30_000);

afterAll(async () => {
  setApp(undefined);
  for (const handle of handles) await handle.close();
  await closeDatabase();
});

/** A request handled by one instance, as a load balancer would route it. */
async function via(app: AppContext, method: string, path: string, token: string | null, body?: unknown, headers?: Record<string, string>) {
  setApp(app);
  return request(method, path, { token, body, headers });
}

async function newUser(id: string, role: "admin" | "member" = "member"): Promise<{ token: string; keyId: string }> {
  expect((await via(first, "POST", "/ext/svc/admin/users", ADMIN_TOKEN, { id, role })).status).toBe(201);
  const key = await via(first, "POST", `/ext/svc/admin/users/${id}/api-keys`, ADMIN_TOKEN, {});
  expect(key.status).toBe(201);
  return { token: key.body.token, keyId: key.body.id };
}

/** Authenticates through the second instance until its cache holds the key (one request does it). */
async function cachedOnSecond(token: string) {
  const me = await via(second, "GET", "/ext/svc/me", token);
  expect(me.status).toBe(200);
  expect(actorCacheFor(second.db)!.get(`key:${hashApiKey(token)}`)).toBeDefined();
  return me;
}

const sameOrigin = { "sec-fetch-site": "same-origin" };

describe(`actor cache (${onPostgres ? "two instances on PostgreSQL" : "PGlite"})`, () => {
  it("serves a cached key and still records its use", async () => {
    const { token, keyId } = await newUser("cached");
    await cachedOnSecond(token);
    expect((await via(second, "GET", "/ext/svc/me", token)).status).toBe(200);
    const [row] = await first.db.select().from(apiKeys).where(eq(apiKeys.id, keyId));
    expect(row!.lastUsedAt).not.toBeNull();
  });

  it("refuses a key revoked through the other instance on the very next request", async () => {
    const { token, keyId } = await newUser("revoked");
    await cachedOnSecond(token);
    expect((await via(first, "DELETE", `/ext/svc/admin/users/revoked/api-keys/${keyId}`, ADMIN_TOKEN)).status).toBe(204);
    expect((await via(second, "GET", "/ext/svc/me", token)).status).toBe(401);
  });

  it("refuses a user deactivated through the other instance on the very next request", async () => {
    const { token } = await newUser("deactivated");
    await cachedOnSecond(token);
    expect((await via(first, "PATCH", "/ext/svc/admin/users/deactivated", ADMIN_TOKEN, { is_active: false })).status).toBe(200);
    expect((await via(second, "GET", "/ext/svc/me", token)).status).toBe(401);
  });

  it("treats an admin demoted through the other instance as a member on the very next request", async () => {
    const { token } = await newUser("demoted", "admin");
    expect((await cachedOnSecond(token)).body.role).toBe("admin");
    expect((await via(second, "GET", "/ext/svc/admin/users", token)).status).toBe(200);
    expect((await via(first, "PATCH", "/ext/svc/admin/users/demoted", ADMIN_TOKEN, { role: "member" })).status).toBe(200);
    expect((await via(second, "GET", "/ext/svc/admin/users", token)).status).toBe(403);
    expect((await via(second, "GET", "/ext/svc/me", token)).body.role).toBe("member");
  });

  it("refuses a user deleted through the other instance on the very next request", async () => {
    const { token } = await newUser("deleted");
    await cachedOnSecond(token);
    expect((await via(first, "DELETE", "/ext/svc/admin/users/deleted", ADMIN_TOKEN)).status).toBe(204);
    expect((await via(second, "GET", "/ext/svc/me", token)).status).toBe(401);
  });

  it("refuses a service account's key once the account is deleted through the other instance", async () => {
    const { token } = await newUser("owner");
    expect((await via(first, "POST", "/ext/svc/me/service-accounts", token, { id: "bot" })).status).toBe(201);
    const botKey = await via(first, "POST", "/ext/svc/me/service-accounts/bot/api-keys", token, {});
    await cachedOnSecond(botKey.body.token);
    expect((await via(first, "DELETE", "/ext/svc/me/service-accounts/bot", token)).status).toBe(204);
    expect((await via(second, "GET", "/ext/svc/me", botKey.body.token)).status).toBe(401);
  });

  it("ends a cached console session signed out through the other instance", async () => {
    await newUser("signed-in");
    const cookie = await mintSessionCookie(first, "signed-in");
    const claims = await sessionClaims(first, cookie.slice(cookie.indexOf("=") + 1));
    expect((await via(second, "GET", "/ext/svc/me", null, undefined, { cookie, ...sameOrigin })).status).toBe(200);
    expect(actorCacheFor(second.db)!.get(`session:${claims!.sessionId}`)).toBeDefined();
    await endSession(first.db, claims!.sessionId);
    expect((await via(second, "GET", "/ext/svc/me", null, undefined, { cookie, ...sameOrigin })).status).toBe(401);
  });

  it("ends a cached console session when the password changes through the other instance", async () => {
    const { token } = await newUser("changer");
    expect((await via(first, "PATCH", "/ext/svc/admin/users/changer", ADMIN_TOKEN, { password: "a long first password" })).status).toBe(
      200,
    );
    const cookie = await mintSessionCookie(first, "changer");
    expect((await via(second, "GET", "/ext/svc/me", null, undefined, { cookie, ...sameOrigin })).status).toBe(200);
    const changed = await via(first, "POST", "/ext/svc/me/password", token, {
      current_password: "a long first password",
      new_password: "a long second password",
    });
    expect(changed.status).toBe(204);
    expect((await via(second, "GET", "/ext/svc/me", null, undefined, { cookie, ...sameOrigin })).status).toBe(401);
  });
});
