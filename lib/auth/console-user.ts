import "server-only";
import { cookies, headers } from "next/headers";
import { cache } from "react";
import { getApp } from "@/lib/server/app";
import type { Role } from "@/lib/services/context";
import { isHttpsRequest, readSessionToken } from "./cookies";
import { actorForSession } from "./session";

/** The signed-in console user, as the console's server components and client shell see it. */
export interface ConsoleUser {
  id: string;
  displayName: string;
  role: Role;
}

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
