// next-auth's error codes (the `error` query parameter), and the console's own for single sign-on
// (lib/auth/oidc.ts, lib/services/identity/sso.ts), in words a user can act on. The README's
// "Single sign-on" section lists them for administrators.
const TRY_AGAIN_OR_PASSWORD = "Try again, or sign in with your password.";
const MESSAGES: Record<string, string> = {
  CredentialsSignin: "The user name or password is wrong, or the account is inactive.",
  PasswordSignInOff: "Password sign-in is turned off on this console: sign in with single sign-on.",
  AccessDenied: "Signing in was refused.",
  OAuthSignin: `Single sign-on could not be started. ${TRY_AGAIN_OR_PASSWORD}`,
  OAuthCallback: `Single sign-on did not complete. ${TRY_AGAIN_OR_PASSWORD}`,
  OAuthAccountNotLinked: `Single sign-on did not complete. ${TRY_AGAIN_OR_PASSWORD}`,
  Callback: "Signing in did not complete. Try again.",
  SessionRequired: "Sign in to continue.",
  Configuration: "Signing in is misconfigured on the server. Tell an administrator.",
  SignInUnavailable: "Signing in is not possible right now: the server could not complete it. Try again in a moment.",
  SsoUnreachable: "The single sign-on provider cannot be reached right now. Try again later, or sign in with your password.",
  SsoState:
    "This sign-in could not be matched to one started in this browser (it took too long, or the link came from elsewhere). Start again.",
  SsoCodeRefused: "The single sign-on provider refused the sign-in code: it was used already or has expired. Start again.",
  SsoIdToken:
    "The single sign-on provider's identity token failed its checks (made for another application, expired, or wrongly signed), so nobody was signed in. Tell an administrator if it happens again.",
  SsoDenied: "The single sign-on provider did not sign you in: it was cancelled or refused there.",
  SsoNoEmail: "Your single sign-on account has no email address this console could match. Ask an administrator.",
  SsoEmailUnverified: "Your single sign-on provider has not verified your email address. Verify it there, then try again.",
  SsoNoUser:
    "No user of this console has your email address, and users are not created at sign-in here. Ask an administrator to create your user first.",
  SsoAmbiguous: "More than one user of this console has your email address. Ask an administrator to give it to one only.",
  SsoInactive: "Your user on this console is deactivated. Ask an administrator.",
  SsoLinkedElsewhere:
    "The user with your email address is linked to another single sign-on account. Ask an administrator to unlink it first.",
};

export function signInErrorMessage(code: string): string {
  return Object.hasOwn(MESSAGES, code) ? MESSAGES[code]! : "Signing in failed. Try again.";
}
