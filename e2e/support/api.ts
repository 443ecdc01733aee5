import type { APIRequestContext } from "@playwright/test";
import { E2E_ADMIN_TOKEN } from "./env";
import { expect } from "./fixtures";

/** The bootstrap admin's Authorization header, for setting up through the API. */
export const ADMIN_HEADERS = { authorization: `Bearer ${E2E_ADMIN_TOKEN}` };

/** One /ext/svc call that must succeed (setup steps); the JSON answer, or null for 204. */
export async function apiCall(
  request: APIRequestContext,
  method: "POST" | "PATCH" | "DELETE",
  url: string,
  headers: Record<string, string>,
  data?: unknown,
) {
  const res = await request.fetch(url, { method, headers, data });
  expect(res.status(), `${method} ${url}: ${await res.text()}`).toBeLessThan(300);
  return res.status() === 204 ? null : ((await res.json()) as Record<string, unknown>);
}

/**
 * Makes the user anew: removes one left by an earlier try of the same spec file (a CI retry
 * runs the whole serial file again), with what it owned, then creates it.
 */
export async function createFreshUser(
  api: APIRequestContext,
  user: { id: string; display_name: string; password: string; role?: "admin" | "member" },
) {
  expect([204, 404]).toContain((await api.delete(`/ext/svc/admin/users/${user.id}`, { headers: ADMIN_HEADERS })).status());
  const created = await api.post("/ext/svc/admin/users", { headers: ADMIN_HEADERS, data: user });
  expect(created.status(), await created.text()).toBe(201);
}
