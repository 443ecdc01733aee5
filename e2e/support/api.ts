import type { APIRequestContext, APIResponse } from "@playwright/test";
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

/** A setup request's answer, once it is known to be a success (its status and body otherwise). */
export async function expectOk(response: APIResponse) {
  expect(response.ok(), `${response.url()} → ${response.status()} ${await response.text()}`).toBe(true);
  return response;
}

/**
 * Deletes what an earlier try of the same spec file may have left at `path` (a CI retry runs the
 * whole serial file again on the same data): 204, or 404 when there is none.
 */
export async function deleteIfPresent(api: APIRequestContext, path: string) {
  const res = await api.delete(path, { headers: ADMIN_HEADERS });
  expect([204, 404], `DELETE ${path}: ${await res.text()}`).toContain(res.status());
}

/**
 * Removes a bank and its policy, if there. Both outlive the bank's owner (the bank stays, owned
 * by nobody, when its user is deleted), and a policy may precede its bank (deleting the bank
 * deletes its policy, CONTRACT §19).
 */
export async function deleteBankIfPresent(api: APIRequestContext, bankId: string) {
  const path = `/ext/svc/banks/${encodeURIComponent(bankId)}`;
  await deleteIfPresent(api, `${path}/policy`);
  await deleteIfPresent(api, path);
}

/**
 * Makes the user anew: removes one left by an earlier try of the same spec file (a CI retry
 * runs the whole serial file again), with what it owned, then creates it.
 */
export async function createFreshUser(
  api: APIRequestContext,
  user: { id: string; display_name?: string; password?: string; role?: "admin" | "member" },
) {
  await deleteIfPresent(api, `/ext/svc/admin/users/${user.id}`);
  const created = await api.post("/ext/svc/admin/users", { headers: ADMIN_HEADERS, data: user });
  expect(created.status(), await created.text()).toBe(201);
}

/** The console's audit page shows this many entries at a time. */
const AUDIT_PAGE_SIZE = 50;

/**
 * How many rows the console's first audit page shows for `filters` once `added` more entries
 * match: the log cannot be cleared, so a CI retry (the whole serial file again, on the same
 * data) finds the earlier try's entries, older than its own, below them. Call it before writing.
 */
export async function auditRowsAfter(api: APIRequestContext, filters: Record<string, string>, added: number) {
  const query = new URLSearchParams({ ...filters, limit: String(AUDIT_PAGE_SIZE) });
  const res = await api.get(`/ext/svc/admin/audit?${query}`, { headers: ADMIN_HEADERS });
  expect(res.status(), await res.text()).toBe(200);
  const earlier = ((await res.json()) as { entries: unknown[] }).entries.length;
  return Math.min(earlier + added, AUDIT_PAGE_SIZE);
}
