import { randomBytes } from "node:crypto";
import { desc } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import { auditEntries } from "@/db/schema";
import { loadConfig } from "@/lib/platform/config";
import { setApp } from "@/lib/server/app";
import type { AppContext } from "@/lib/services/context";
import { bootstrapIdentity } from "@/lib/services/identity/bootstrap";
import { freshDatabase } from "./database";
import { callThroughFastPath, fastPathSelected, isApiPath } from "./fast-path";
import { callRouteFile } from "./router";
import { ADMIN_TOKEN } from "./tokens";

/** Whether the API tests reach the handlers through the production server's fast path (./fast-path.ts). */
export { ADMIN_TOKEN, fastPathSelected };

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string | null;
  body?: unknown;
  /** Sent as is, for malformed bodies. */
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
}

/**
 * Hands `req` to the real route handler of its path and method: in this process as Next would, or,
 * with TEST_API_VIA=fast-path, an API request over HTTP through the production server's fast path
 * (./fast-path.ts).
 */
export async function callRoute(req: Request): Promise<Response> {
  if (fastPathSelected && isApiPath(new URL(req.url).pathname)) return callThroughFastPath(req);
  return callRouteFile(req);
}

/** Calls the real route handler for `path`, as Next would. */
export async function request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const url = new URL(path, "http://localhost");
  const headers = new Headers(options.headers);
  if (options.token) headers.set("authorization", `Bearer ${options.token}`);
  let body: BodyInit | undefined;
  if (options.rawBody !== undefined) body = options.rawBody as BodyInit;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const response = await callRoute(new Request(url, { method, headers, body }));
  const text = await response.text();
  let parsed: unknown;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

/** A client bound to one token. */
export function as(token: string | null) {
  const call = <T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    request<T>(method, path, { token, body, headers });
  return {
    token,
    /** Any request, with headers of its own (If-Match, Idempotency-Key, ...). */
    send: call,
    get: <T = any>(path: string) => call<T>("GET", path),
    post: <T = any>(path: string, body?: unknown) => call<T>("POST", path, body ?? {}),
    put: <T = any>(path: string, body?: unknown) => call<T>("PUT", path, body ?? {}),
    patch: <T = any>(path: string, body?: unknown) => call<T>("PATCH", path, body ?? {}),
    delete: <T = any>(path: string) => call<T>("DELETE", path),
  };
}
export type Client = ReturnType<typeof as>;

export interface TestApp {
  app: AppContext;
  admin: Client;
  /** Creates a member (or admin) user and a key for it. */
  user(id: string, role?: "admin" | "member"): Promise<Client>;
  databaseUrl: string | null;
  /** The newest audit entry, as stored. */
  lastAudit(): Promise<typeof auditEntries.$inferSelect>;
}

/**
 * Registers hooks that give the test file its own application on a fresh database
 * (PGlite in memory, or a new PostgreSQL database), with an admin token.
 */
export function useTestApp(env: Record<string, string> = {}): TestApp {
  const testApp = {} as TestApp;
  let close: () => Promise<void> = async () => {};
  beforeAll(async () => {
    const db = await freshDatabase();
    close = db.close;
    const config = loadConfig({ BOOTSTRAP_ADMIN_TOKEN: ADMIN_TOKEN, DATA_DIR: "/nonexistent", ...env });
    const app: AppContext = { config, db: db.handle.db, database: db.handle, secretKey: randomBytes(32) };
    await bootstrapIdentity(app, () => {});
    setApp(app);
    testApp.app = app;
    testApp.databaseUrl = db.url;
    testApp.admin = as(ADMIN_TOKEN);
    testApp.lastAudit = async () => {
      const [entry] = await app.db.select().from(auditEntries).orderBy(desc(auditEntries.seq)).limit(1);
      if (!entry) throw new Error("no audit entry yet");
      return entry;
    };
    testApp.user = async (id, role = "member") => {
      const created = await testApp.admin.post("/ext/svc/admin/users", { id, role });
      if (created.status !== 201) throw new Error(`creating ${id}: ${created.status} ${created.text}`);
      const key = await testApp.admin.post(`/ext/svc/admin/users/${id}/api-keys`, { description: "test" });
      if (key.status !== 201) throw new Error(`key for ${id}: ${key.status} ${key.text}`);
      return as(key.body.token);
    };
  });
  afterAll(async () => {
    setApp(undefined);
    await close();
  });
  return testApp;
}
