import type { APIRequestContext } from "@playwright/test";
import { E2E_ADMIN_TOKEN } from "./env";
import { expect } from "./fixtures";

/** The bootstrap admin's Authorization header, for setting up through the API. */
export const ADMIN_HEADERS = { authorization: `Bearer ${E2E_ADMIN_TOKEN}` };

/** One /ext/svc call that must succeed (setup steps); the JSON answer, or null for 204. */
export async function apiCall(request: APIRequestContext, method: "POST" | "PATCH" | "DELETE", url: string, headers: Record<string, string>, data?: unknown) {
  const res = await request.fetch(url, { method, headers, data });
  expect(res.status(), `${method} ${url}: ${await res.text()}`).toBeLessThan(300);
  return res.status() === 204 ? null : ((await res.json()) as Record<string, unknown>);
}
