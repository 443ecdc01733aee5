import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/platform/config";
import { TestOidcProvider } from "../e2e/support/oidc-provider";
import { useTestApp } from "./support/app";
import { ssoSignIn } from "./support/sso-flow";

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

describe("single sign-on", () => {
  it("signs in a user whose email only userinfo gives", async () => {
    expect((await t.admin.post("/ext/svc/admin/users", { id: "dana", email: "Dana@example.org" })).status).toBe(201);
    provider.setUser("dana-at-idp", { email: "dana@example.org", email_verified: true, name: "Dana" });
    const result = await ssoSignIn("dana-at-idp");
    expect(result).toMatchObject({ status: 302, error: null });
    expect(result.sessionCookie).not.toBeNull();
  });
});
