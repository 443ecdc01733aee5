// next-auth's error codes (the `error` query parameter) in words a user can act on.
const MESSAGES: Record<string, string> = {
  CredentialsSignin: "The user name or password is wrong, or the account is inactive.",
  AccessDenied:
    "Your single sign-on account matches no active user of this console. Ask an administrator to set your email address on your user.",
  OAuthSignin: "Single sign-on could not be started. Try again, or sign in with your password.",
  OAuthCallback: "Single sign-on did not complete. Try again, or sign in with your password.",
  OAuthAccountNotLinked: "Single sign-on did not complete. Try again, or sign in with your password.",
  Callback: "Signing in did not complete. Try again.",
  SessionRequired: "Sign in to continue.",
  Configuration: "Signing in is misconfigured on the server. Tell an administrator.",
};

export function signInErrorMessage(code: string): string {
  return MESSAGES[code] ?? "Signing in failed. Try again.";
}
