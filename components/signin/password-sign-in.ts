import { getCsrfToken } from "next-auth/react";
import { tooManySignInsMessage } from "@/lib/contracts/identity/sign-in-messages";
import { signInErrorMessage } from "./sign-in-errors";

/** Where next-auth's routes live (app/api/auth/[...nextauth]). */
const AUTH_BASE_PATH = "/api/auth";

export type PasswordSignInResult = { ok: true } | { ok: false; message: string };

/**
 * Signs in with a user name and password, as next-auth's `signIn("credentials")` does, but
 * posting the form itself: `signIn()` reads every answer as JSON with a `url`, so the
 * server's 429 (problem+json with Retry-After, CONTRACT §11) would surface only as a
 * generic failure. The CSRF handling is next-auth's own: `getCsrfToken()` fetches the
 * token (and sets its cookie), and the form carries it as `csrfToken` exactly as `signIn()`
 * sends it; `json=true` asks for the JSON answer instead of a redirect.
 */
export async function signInWithPassword(username: string, password: string, callbackUrl: string): Promise<PasswordSignInResult> {
  try {
    const csrfToken = await getCsrfToken();
    if (!csrfToken) return { ok: false, message: signInErrorMessage("Callback") };
    const response = await fetch(`${AUTH_BASE_PATH}/callback/credentials`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username, password, csrfToken, callbackUrl, json: "true" }),
    });
    if (response.status === 429) return { ok: false, message: tooManySignInsMessage(Number(response.headers.get("retry-after"))) };
    const answer = (await response.json().catch(() => null)) as { url?: unknown } | null;
    const url = typeof answer?.url === "string" ? new URL(answer.url, window.location.origin) : null;
    const error = url ? url.searchParams.get("error") : "Callback";
    if (response.ok && !error) return { ok: true };
    return { ok: false, message: signInErrorMessage(error ?? "Callback") };
  } catch {
    return { ok: false, message: signInErrorMessage("Callback") };
  }
}
