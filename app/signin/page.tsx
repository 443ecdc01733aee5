import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInPage } from "@/components/signin/SignInPage";
import { safeCallbackUrl } from "@/lib/auth/callback-url";
import { currentConsoleUser } from "@/lib/auth/console-user";
import { signInOptions } from "@/lib/auth/options";

export const metadata: Metadata = { title: "Sign in" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? null;

// The sign-in page next-auth sends to (pages.signIn and pages.error): `error` names why
// the last attempt failed, `callbackUrl` where to go afterwards.
export default async function Page({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const callbackUrl = safeCallbackUrl(params.callbackUrl);
  const error = first(params.error);
  // Already signed in (and still active): straight on, unless there is an error to show.
  if (!error && (await currentConsoleUser())) redirect(callbackUrl);
  const { oidc, passwordSignIn } = await signInOptions();
  return (
    <SignInPage
      callbackUrl={callbackUrl}
      error={error}
      signedOut={first(params.signedOut) === "1"}
      oidc={oidc}
      passwordSignIn={passwordSignIn}
    />
  );
}
