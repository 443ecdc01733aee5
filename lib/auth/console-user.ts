import "server-only";
import { cookies, headers } from "next/headers";
import { cache } from "react";
import type { ConsoleUser } from "@/lib/contracts/identity/console-user";
import { getApp } from "@/lib/server/app";
import { isHttpsRequest, readSessionToken } from "./cookies";
import { actorForSession } from "./session";

/**
 * The user of the current page request, re-read from the database (so a deactivated user is
 * signed out at once), or null. For server components and layouts; read once per request.
 */
export const currentConsoleUser = cache(async (): Promise<ConsoleUser | null> => {
  const [cookieStore, headerList] = await Promise.all([cookies(), headers()]);
  const token = readSessionToken((name) => cookieStore.get(name)?.value, isHttpsRequest(headerList));
  if (!token) return null;
  const actor = await actorForSession(await getApp(), token);
  return actor ? { id: actor.id, displayName: actor.displayName, role: actor.role } : null;
});
