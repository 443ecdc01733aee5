import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ssoFailureOf } from "@/lib/auth/oidc";
import { loadConfig } from "@/lib/platform/config";
import { userIdCandidate } from "@/lib/services/identity/sso";
import { TestOidcProvider } from "../e2e/support/oidc-provider";
import { request, useTestApp } from "./support/app";
import { signInWithPassword } from "./support/console-sessions";
import { finishSsoSignIn, type SsoResult, ssoCallback, ssoSignIn, startSsoSignIn } from "./support/sso-flow";

// Single sign-on against a real OpenID provider (oidc-provider, started here), through the
// console's next-auth route: the user rules (matching, creation, roles from groups), and each
// failure at the provider's end answered with its reason on the sign-in page, never a 5xx.

const t = useTestApp();
const provider = new TestOidcProvider(["http://localhost/api/auth/callback/oidc"]);

/** Single sign-on with the test provider and `settings` (OIDC_CREATE_USERS, OIDC_ADMIN_GROUPS…) from now on. */
function useSso(settings: Record<string, string> = {}) {
  t.app.config.sso = loadConfig({ ...provider.consoleEnv, ...settings }).sso;
}

beforeAll(async () => {
  await provider.start();
  useSso();
});
afterAll(() => provider.stop());

const user = async (id: string) => (await t.admin.get(`/ext/svc/admin/users/${id}`)).body;
const auditOf = async (action: string, target: string) =>
  (await t.admin.get(`/ext/svc/admin/audit?action=${action}&target=${encodeURIComponent(`/ext/svc/admin/users/${target}`)}`)).body.entries;

/** Signed in: a redirect to where the sign-in started, with a session cookie. */
function expectSignedIn(result: SsoResult) {
  expect(result, JSON.stringify(result)).toMatchObject({ status: 302, error: null, location: "http://localhost/" });
  expect(result.sessionCookie).not.toBeNull();
}

/** Refused: back to the sign-in page with `code`, no session, never a 5xx. */
function expectRefused(result: SsoResult, code: string) {
  expect(result.status, JSON.stringify(result)).toBeLessThan(500);
  expect(result.error, JSON.stringify(result)).toBe(code);
  expect(new URL(result.location!, "http://localhost").pathname).toMatch(/^\/(signin|api\/auth\/error)$/);
  expect(result.sessionCookie).toBeNull();
}

/** Whose session a cookie is: GET /ext/svc/me with it. */
async function whoIs(result: SsoResult): Promise<{ user_id: string; role: string }> {
  const me = await request("GET", "/ext/svc/me", { headers: { cookie: result.sessionCookie!, "sec-fetch-site": "same-origin" } });
  expect(me.status).toBe(200);
  return me.body;
}

describe("matching an account to a user", () => {
  it("signs in the user with the account's email, which only userinfo gives (the ID token has just sub), and links the account", async () => {
    expect((await t.admin.post("/ext/svc/admin/users", { id: "dana", email: "Dana@Example.org" })).status).toBe(201);
    provider.setUser("dana-at-idp", { email: "dana@example.org", email_verified: true, name: "Dana" });
    const result = await ssoSignIn("dana-at-idp");
    expectSignedIn(result);
    expect(await whoIs(result)).toMatchObject({ user_id: "dana", role: "member" });
    const dana = await user("dana");
    expect(dana.sso_identity).toMatchObject({ issuer: provider.issuer, subject: "dana-at-idp", email: "dana@example.org" });
    expect(dana.last_sign_in_at).not.toBeNull();
    expect(await auditOf("user.sso.link", "dana")).toHaveLength(1);
  });

  it("finds the user by the account (sub) after the provider changed its email, and keeps the new email on the link", async () => {
    provider.setUser("dana-at-idp", { email: "dana.new@example.org", email_verified: true });
    const result = await ssoSignIn("dana-at-idp");
    expect(await whoIs(result)).toMatchObject({ user_id: "dana" });
    expect((await user("dana")).sso_identity.email).toBe("dana.new@example.org");
    expect((await t.admin.get("/ext/svc/admin/users")).body.map((u: { id: string }) => u.id)).toEqual(["admin", "dana"]);
  });

  it("refuses an account whose email is unverified, missing, nobody's, or shared by two active users", async () => {
    provider.setUser("eve", { email: "dana@example.org", email_verified: false });
    expectRefused(await ssoSignIn("eve"), "SsoEmailUnverified");
    provider.setUser("nomail", { name: "No Mail" });
    expectRefused(await ssoSignIn("nomail"), "SsoNoEmail");
    provider.setUser("stranger", { email: "stranger@example.org", email_verified: true });
    expectRefused(await ssoSignIn("stranger"), "SsoNoUser");
    for (const id of ["gail", "hugo"]) await t.admin.post("/ext/svc/admin/users", { id, email: "shared@example.org" });
    provider.setUser("shared", { email: "shared@example.org" });
    expectRefused(await ssoSignIn("shared"), "SsoAmbiguous");
    // A deactivated user beside an active one is an old account: the active one is meant.
    await t.admin.patch("/ext/svc/admin/users/hugo", { is_active: false });
    expect(await whoIs(await ssoSignIn("shared"))).toMatchObject({ user_id: "gail" });
    expect(await auditOf("user.sso.create", "stranger")).toEqual([]);
  });

  it("refuses a deactivated user, and a second account with the email of a user linked to another", async () => {
    await t.admin.patch("/ext/svc/admin/users/gail", { is_active: false });
    expectRefused(await ssoSignIn("shared"), "SsoInactive");
    await t.admin.patch("/ext/svc/admin/users/gail", { is_active: true });
    provider.setUser("dana-second", { email: "dana@example.org" });
    expectRefused(await ssoSignIn("dana-second"), "SsoLinkedElsewhere");
  });

  it("unlinks an account (audited, 404 when none): the next sign-in matches by email again", async () => {
    const unlinked = await t.admin.delete("/ext/svc/admin/users/dana/sso-identity");
    expect(unlinked.status).toBe(204);
    expect((await user("dana")).sso_identity).toBeNull();
    expect((await t.admin.delete("/ext/svc/admin/users/dana/sso-identity")).status).toBe(404);
    expect((await t.admin.delete("/ext/svc/admin/users/nobody/sso-identity")).status).toBe(404);
    const [entry] = await auditOf("user.sso.unlink", "dana");
    expect(entry).toMatchObject({
      actor: { principal_id: "admin" },
      before: { sso_identity: { subject: "dana-at-idp" } },
      after: { sso_identity: null },
    });
    // The account now says dana.new@example.org, nobody's email here; the other account has dana's.
    expectRefused(await ssoSignIn("dana-at-idp"), "SsoNoUser");
    expect(await whoIs(await ssoSignIn("dana-second"))).toMatchObject({ user_id: "dana" });
  });
});

describe("users created at their first sign-in (OIDC_CREATE_USERS=true)", () => {
  it("creates a member named by preferred_username, audited, and finds them by sub afterwards", async () => {
    useSso({ OIDC_CREATE_USERS: "true" });
    provider.setUser("sub-ivy", { email: "ivy@example.org", preferred_username: "Ivy Lee", name: "Ivy Lee" });
    const first = await ssoSignIn("sub-ivy");
    expect(await whoIs(first)).toMatchObject({ user_id: "ivy-lee", role: "member" });
    expect(await user("ivy-lee")).toMatchObject({ display_name: "Ivy Lee", email: "ivy@example.org", has_password: false, role: "member" });
    const [created] = await auditOf("user.sso.create", "ivy-lee");
    expect(created).toMatchObject({ actor: { principal_id: "ivy-lee" }, before: null, after: { id: "ivy-lee" } });
    provider.setUser("sub-ivy", { email: "ivy@elsewhere.example", preferred_username: "ivy.renamed" });
    expect(await whoIs(await ssoSignIn("sub-ivy"))).toMatchObject({ user_id: "ivy-lee" });
    expect((await t.admin.get("/ext/svc/admin/users")).body.map((u: { id: string }) => u.id)).not.toContain("ivy.renamed");
  });

  it("takes the email when there is no preferred_username, and a free id when the name is taken or invalid", async () => {
    provider.setUser("sub-jo", { email: "Jo@Example.org" });
    expect(await whoIs(await ssoSignIn("sub-jo"))).toMatchObject({ user_id: "jo@example.org" });
    provider.setUser("sub-fake-admin", { email: "boss@example.org", preferred_username: "admin" });
    expect(await whoIs(await ssoSignIn("sub-fake-admin"))).toMatchObject({ user_id: "admin-2", role: "member" });
    expect(userIdCandidate("Zoë Ünal")).toBe("zoe-unal");
    expect(userIdCandidate("__x")).toBe("x");
    expect(userIdCandidate("---")).toBeNull();
    expect(userIdCandidate("a".repeat(80))).toHaveLength(64);
  });

  it("still refuses an unverified email, and says creation is off when it is", async () => {
    provider.setUser("sub-kim", { email: "kim@example.org", email_verified: false });
    expectRefused(await ssoSignIn("sub-kim"), "SsoEmailUnverified");
    useSso();
    provider.setUser("sub-kim", { email: "kim@example.org" });
    expectRefused(await ssoSignIn("sub-kim"), "SsoNoUser");
  });
});

describe("roles from the provider's groups (OIDC_ADMIN_GROUPS)", () => {
  it("leaves roles alone without the setting, whatever the groups say", async () => {
    provider.setUser("sub-ivy", { email: "ivy@example.org", groups: ["console-admins"] });
    expect(await whoIs(await ssoSignIn("sub-ivy"))).toMatchObject({ user_id: "ivy-lee", role: "member" });
    await t.admin.patch("/ext/svc/admin/users/jo@example.org", { role: "admin" });
    provider.setUser("sub-jo", { email: "jo@example.org", groups: [] });
    expect(await whoIs(await ssoSignIn("sub-jo"))).toMatchObject({ role: "admin" });
    await t.admin.patch("/ext/svc/admin/users/jo@example.org", { role: "member" });
  });

  it("promotes a member of an admin group at sign-in and demotes them once the group is gone, each audited", async () => {
    useSso({ OIDC_ADMIN_GROUPS: "ops, console-admins" });
    expect(await whoIs(await ssoSignIn("sub-ivy"))).toMatchObject({ user_id: "ivy-lee", role: "admin" });
    provider.setUser("sub-ivy", { email: "ivy@example.org", groups: ["developers"] });
    expect(await whoIs(await ssoSignIn("sub-ivy"))).toMatchObject({ role: "member" });
    const entries = await auditOf("user.sso.role", "ivy-lee");
    expect(entries.map((e: { before: { role: string }; after: { role: string } }) => `${e.before.role}>${e.after.role}`)).toEqual([
      "admin>member",
      "member>admin",
    ]);
    expect(entries[0]).toMatchObject({ actor: { principal_id: "ivy-lee" }, target_type: "user", target_id: "ivy-lee" });
  });

  it("reads the groups from the claim OIDC_GROUPS_CLAIM names, a single name as well as a list", async () => {
    useSso({ OIDC_ADMIN_GROUPS: "ops", OIDC_GROUPS_CLAIM: "name" });
    provider.setUser("sub-ivy", { email: "ivy@example.org", name: "ops" });
    expect(await whoIs(await ssoSignIn("sub-ivy"))).toMatchObject({ role: "admin" });
  });

  it("never demotes the last active admin: the sign-in goes on, and the role stays", async () => {
    await t.admin.patch("/ext/svc/admin/users/admin", { is_active: false });
    useSso({ OIDC_ADMIN_GROUPS: "ops" });
    provider.setUser("sub-ivy", { email: "ivy@example.org", groups: [] });
    expect(await whoIs(await ssoSignIn("sub-ivy"))).toMatchObject({ user_id: "ivy-lee", role: "admin" });
    const ivy = await request("PATCH", "/ext/svc/admin/users/admin", {
      body: { is_active: true },
      headers: { cookie: (await ssoSignIn("sub-ivy")).sessionCookie!, origin: "http://localhost", "sec-fetch-site": "same-origin" },
    });
    expect(ivy.status).toBe(200);
    useSso();
  });
});

describe("failures at the provider's end are refused with their reason, never a 5xx", () => {
  it("a tampered state", async () => {
    const pending = await ssoCallback("sub-jo");
    if (!("path" in pending)) throw new Error("not started");
    const url = new URL(pending.path, "http://localhost");
    url.searchParams.set("state", `${url.searchParams.get("state")}x`);
    expectRefused(await finishSsoSignIn({ ...pending, path: `${url.pathname}${url.search}` }), "SsoState");
  });

  it("a callback without the browser's state cookie (another browser, or a forged link)", async () => {
    const pending = await ssoCallback("sub-jo");
    if (!("path" in pending)) throw new Error("not started");
    const cookies = new Map([...pending.cookies].filter(([name]) => !name.includes("state")));
    expectRefused(await finishSsoSignIn({ ...pending, cookies }), "SsoState");
  });

  it("a replayed authorization code", async () => {
    const pending = await ssoCallback("sub-jo");
    if (!("path" in pending)) throw new Error("not started");
    expectSignedIn(await finishSsoSignIn(pending));
    expectRefused(await finishSsoSignIn(pending), "SsoCodeRefused");
  });

  it("an ID token for another audience, an expired one, one for another nonce", async () => {
    for (const [change, why] of [
      [(claims: Record<string, unknown>) => ({ ...claims, aud: "another-client" }), "aud"],
      [(claims: Record<string, unknown>) => ({ ...claims, iat: 1_000_000, exp: 1_000_600 }), "exp"],
      [(claims: Record<string, unknown>) => ({ ...claims, nonce: "a-nonce-of-another-sign-in" }), "nonce"],
    ] as const) {
      const pending = await ssoCallback("sub-jo");
      if (!("path" in pending)) throw new Error("not started");
      provider.tamperNextIdToken(change);
      const result = await finishSsoSignIn(pending);
      expect(result.error, why).toBe("SsoIdToken");
      expectRefused(result, "SsoIdToken");
    }
  });

  it("a provider that is down, at the start and at the callback; password sign-in still works", async () => {
    const pending = await ssoCallback("sub-jo");
    await provider.stop();
    try {
      const started = await startSsoSignIn();
      expect("authorizationUrl" in started).toBe(false);
      expectRefused(started as SsoResult, "SsoUnreachable");
      if (!("path" in pending)) throw new Error("not started");
      expectRefused(await finishSsoSignIn(pending), "SsoUnreachable");
      await t.admin.post("/ext/svc/admin/users", { id: "pat", password: "pat's long password" });
      expect(await signInWithPassword(t.app, "pat", "pat's long password")).not.toBeNull();
    } finally {
      await provider.start();
    }
  });

  it("the provider sending the person back with an error (they cancelled), and forged or damaged callbacks", async () => {
    const pending = await ssoCallback("sub-jo");
    if (!("path" in pending)) throw new Error("not started");
    const state = new URL(pending.path, "http://localhost").searchParams.get("state")!;
    const denied = await finishSsoSignIn({
      ...pending,
      path: `/api/auth/callback/oidc?${new URLSearchParams({ error: "access_denied", state })}`,
    });
    expectRefused(denied, "SsoDenied");
    const forged = [
      "/api/auth/callback/oidc",
      "/api/auth/callback/oidc?code=x",
      "/api/auth/callback/oidc?state=x",
      `/api/auth/callback/oidc?code=${"A".repeat(4000)}&state=${state}`,
      `/api/auth/callback/oidc?code=x&state=${state}&iss=${encodeURIComponent("https://evil.example")}`,
      "/api/auth/callback/oidc?error=%zz&error_description=%ff",
      "/api/auth/callback/oidc?code=%00&state=%E0%A4%A",
    ];
    for (const path of forged) {
      for (const cookies of [new Map<string, string>(), pending.cookies]) {
        const answer = await finishSsoSignIn({ path, cookies });
        expect(answer.status, path).toBeLessThan(500);
        expect(answer.sessionCookie, path).toBeNull();
      }
    }
  });

  it("names each failure by openid-client's words (the version pinned here)", () => {
    const failure = (message: string, code?: string) => ssoFailureOf("OAUTH_CALLBACK_ERROR", { message, code });
    expect(failure("state mismatch, expected abc, got: abd")).toBe("SsoState");
    expect(failure("State cookie was missing.")).toBe("SsoState");
    expect(failure("PKCE code_verifier cookie was missing.")).toBe("SsoState");
    expect(failure("invalid_grant (grant request is invalid)")).toBe("SsoCodeRefused");
    expect(failure("aud mismatch, expected console, got: other")).toBe("SsoIdToken");
    expect(failure("nonce mismatch, expected x, got: y")).toBe("SsoIdToken");
    expect(failure("connect ECONNREFUSED 127.0.0.1:1", "ECONNREFUSED")).toBe("SsoUnreachable");
    expect(failure("something else entirely")).toBeNull();
    expect(ssoFailureOf("OAUTH_CALLBACK_HANDLER_ERROR", { message: "access_denied" })).toBe("SsoDenied");
    expect(ssoFailureOf("SIGNIN_EMAIL_ERROR", { message: "x" })).toBeNull();
  });
});

describe("PASSWORD_SIGN_IN=false", () => {
  it("refuses every password but the bootstrap admin's, before reading it", async () => {
    await t.admin.post("/ext/svc/admin/users", { id: "quinn", password: "quinn's long password" });
    await t.admin.patch("/ext/svc/admin/users/admin", { password: "the admin's long password" });
    t.app.config.passwordSignIn = false;
    try {
      expect(await signInWithPassword(t.app, "quinn", "quinn's long password")).toBeNull();
      expect(await signInWithPassword(t.app, "admin", "the admin's long password")).not.toBeNull();
      expectSignedIn(await ssoSignIn("sub-jo"));
    } finally {
      t.app.config.passwordSignIn = true;
    }
    expect(await signInWithPassword(t.app, "quinn", "quinn's long password")).not.toBeNull();
  });

  it("is read from the setting: true unless turned off, any other word refused at start", () => {
    expect(loadConfig({}).passwordSignIn).toBe(true);
    expect(loadConfig({ PASSWORD_SIGN_IN: "false" }).passwordSignIn).toBe(false);
    expect(() => loadConfig({ PASSWORD_SIGN_IN: "nope" })).toThrow(/PASSWORD_SIGN_IN/);
    expect(() => loadConfig({ OIDC_CREATE_USERS: "sure" })).toThrow(/OIDC_CREATE_USERS/);
  });
});

describe("the settings", () => {
  it("enable single sign-on only with issuer, client id and secret all set", () => {
    expect(loadConfig({}).sso).toBeNull();
    expect(loadConfig({ OIDC_ISSUER: "https://id.example.org", OIDC_CLIENT_ID: "console" }).sso).toBeNull();
    expect(
      loadConfig({ OIDC_ISSUER: "https://id.example.org/", OIDC_CLIENT_ID: "c", OIDC_CLIENT_SECRET: "s", OIDC_NAME: "Acme SSO" }).sso,
    ).toEqual({
      issuer: "https://id.example.org",
      clientId: "c",
      clientSecret: "s",
      name: "Acme SSO",
      scopes: "openid email profile",
      groupsClaim: "groups",
      adminGroups: null,
      createUsers: false,
    });
    const full = loadConfig({
      ...provider.consoleEnv,
      OIDC_SCOPES: "email groups",
      OIDC_ADMIN_GROUPS: " a, ,b ",
      OIDC_CREATE_USERS: "true",
    }).sso;
    expect(full).toMatchObject({ scopes: "email groups openid", adminGroups: ["a", "b"], createUsers: true });
  });
});
