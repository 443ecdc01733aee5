import { generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A real OpenID provider for the tests: `oidc-provider` (an OpenID Certified implementation)
 * with its defaults where they matter — the ID token carries `sub` only and the email, name
 * and groups come from the userinfo endpoint, PKCE and nonce pass through — and its
 * development login and consent pages, where any login name signs in as that account.
 * One confidential client (`console`); the accounts are what `setUser` says, changeable
 * between sign-ins. `tamperNextIdToken` re-signs the next ID token the token endpoint
 * answers with other claims (another audience, an expired one), with the provider's own key;
 * `tamperNextCallback` changes where it next sends the browser back (a forged state).
 */

export interface TestAccount {
  email?: string;
  email_verified?: boolean;
  name?: string;
  preferred_username?: string;
  groups?: string[];
}

const TEST_CLIENT_ID = "console";
const TEST_CLIENT_SECRET = "console-client-secret-for-tests-only";

/** The scope the provider serves the `groups` claim under (the console's OIDC_SCOPES asks for it). */
const GROUPS_SCOPE = "groups";

export class TestOidcProvider {
  private readonly accounts = new Map<string, TestAccount>();
  private server: Server | null = null;
  private readonly key: KeyObject;
  private readonly kid = randomBytes(8).toString("hex");
  private tamper: ((claims: Record<string, unknown>) => Record<string, unknown>) | null = null;
  private tamperCallback: ((callback: URL) => void) | null = null;
  private port = 0;

  /** `redirectUris`: the console's `{base}/api/auth/callback/oidc`, one per console that signs in here. */
  constructor(private readonly redirectUris: string[]) {
    this.key = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
  }

  get issuer(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The console's settings for this provider (OIDC_SCOPES asks for the groups scope too). */
  get consoleEnv(): Record<string, string> {
    return {
      OIDC_ISSUER: this.issuer,
      OIDC_CLIENT_ID: TEST_CLIENT_ID,
      OIDC_CLIENT_SECRET: TEST_CLIENT_SECRET,
      OIDC_NAME: "Test IdP",
      OIDC_SCOPES: `openid email profile ${GROUPS_SCOPE}`,
    };
  }

  /** Adds or changes the account a login name signs in as (its `sub` is the login name, which never changes). */
  setUser(login: string, account: TestAccount): void {
    this.accounts.set(login, account);
  }

  /** The next ID token the token endpoint answers is re-signed with `change(claims)`; later ones are left alone. */
  tamperNextIdToken(change: (claims: Record<string, unknown>) => Record<string, unknown>): void {
    this.tamper = change;
  }

  /** The next redirect back to the console is changed by `change` (a forged state, as a browser would deliver it). */
  tamperNextCallback(change: (callback: URL) => void): void {
    this.tamperCallback = change;
  }

  /** Listens on 127.0.0.1 (`port` 0: the system picks, and a later start takes the same port again). */
  async start(port = this.port): Promise<void> {
    const { Provider } = await import("oidc-provider");
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    const provider = new Provider(this.issuer, {
      clients: [
        {
          client_id: TEST_CLIENT_ID,
          client_secret: TEST_CLIENT_SECRET,
          redirect_uris: this.redirectUris,
          grant_types: ["authorization_code"],
          response_types: ["code"],
        },
      ],
      jwks: { keys: [{ ...(this.key.export({ format: "jwk" }) as Record<string, unknown>), kid: this.kid, use: "sig", alg: "RS256" }] },
      cookies: { keys: [randomBytes(16).toString("hex")] },
      claims: {
        openid: ["sub"],
        email: ["email", "email_verified"],
        profile: ["name", "preferred_username"],
        [GROUPS_SCOPE]: ["groups"],
      },
      pkce: { required: () => true },
      // Set, so it prints no notice of its defaults; the tests take minutes at most.
      ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
      findAccount: (_ctx, sub) => ({
        accountId: sub,
        claims: () => ({ sub, ...this.accounts.get(sub) }),
      }),
      // Its own error page loads a web font; the tests have no network.
      renderError: (ctx, out) => {
        ctx.type = "html";
        ctx.body = `<!doctype html><title>Error</title><h1>Provider error</h1><pre>${escapeHtml(JSON.stringify(out))}</pre>`;
      },
    });
    provider.use(async (ctx, next) => {
      await next();
      const location = String(ctx.response.get("location") ?? "");
      if (this.tamperCallback && this.redirectUris.some((uri) => location.startsWith(`${uri}?`))) {
        const callback = new URL(location);
        this.tamperCallback(callback);
        this.tamperCallback = null;
        ctx.redirect(callback.toString());
      }
      const body = ctx.body as { id_token?: unknown } | undefined;
      if (ctx.path === "/token" && this.tamper && typeof body?.id_token === "string") {
        const claims = JSON.parse(Buffer.from(body.id_token.split(".")[1]!, "base64url").toString()) as Record<string, unknown>;
        body.id_token = this.signJwt(this.tamper(claims));
        this.tamper = null;
      }
    });
    server.on("request", provider.callback());
    this.server = server;
  }

  /** Stops listening (the provider is down) and waits until every connection is closed. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private signJwt(claims: Record<string, unknown>): string {
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const input = `${encode({ alg: "RS256", typ: "JWT", kid: this.kid })}.${encode(claims)}`;
    return `${input}.${sign("sha256", Buffer.from(input), this.key).toString("base64url")}`;
  }
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
