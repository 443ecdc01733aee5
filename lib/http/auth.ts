import type { AppContext } from "@/lib/server/app";
import { principalForApiKey, type Principal } from "@/lib/identity/principal";
import type { Access } from "./endpoint";
import { forbidden, unauthorized } from "./errors";

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** The caller behind `Authorization: Bearer <key>`; 401 (with WWW-Authenticate) otherwise. */
export async function authenticate(request: Request, app: AppContext): Promise<Principal> {
  const header = request.headers.get("authorization");
  if (!header) throw unauthorized("This endpoint needs an API key: send Authorization: Bearer <key>.");
  const token = BEARER.exec(header)?.[1];
  if (!token) throw unauthorized("The Authorization header must have the form Bearer <key>.");
  const principal = await principalForApiKey(app.db, token);
  if (!principal) throw unauthorized("The API key is unknown or revoked, or its account is inactive.");
  return principal;
}

/** 403 when an authenticated caller may not use an endpoint. */
export function authorize(principal: Principal, access: Access): void {
  if (access === "user" && principal.type !== "user") {
    throw forbidden("Service accounts cannot use this endpoint; sign in as a user.");
  }
  if (access === "admin" && principal.role !== "admin") {
    throw forbidden("This endpoint is for administrators.");
  }
}
