import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { type CatalogEntry, E2eMarketplace, e2eManifest } from "./support/marketplace";
import { createScratchDatabase, type ScratchDatabase, ServerProcess, signInOver } from "./support/server-process";

// Several processes on one PostgreSQL database are the normal deployment: two production
// servers share the sign-in rate limit, end sessions and keys for each other, and take turns
// at the scheduled update check. The same holds for the worker processes of one `npm start`
// (WEB_CONCURRENCY=2): there every request opens a new connection, which the workers take in turn.
// Needs a PostgreSQL server where it may create a database: TEST_DATABASE_URL (as `.ci/run`
// exports), else the local one the README's test section names.

const ADMIN_TOKEN = "two-process-admin-token-0123456789abcdef0123456789";
const bearer = { authorization: `Bearer ${ADMIN_TOKEN}` };
const QUINN_PASSWORD = "quinn's long password";
/** The scheduled update check's interval here: six seconds (production counts in whole minutes). */
const CHECK_MINUTES = 0.1;
const CHECK_MS = CHECK_MINUTES * 60_000;
const RHEA_PASSWORD = "rhea's long password";

/** Two servers on their own ports, or one `npm start` with two workers behind one port. */
const DEPLOYMENTS = [
  { title: "two app processes on one PostgreSQL database", ports: [3212, 3213], workers: 1 },
  { title: "two worker processes of one npm start on one PostgreSQL database", ports: [3214], workers: 2 },
];

for (const deployment of DEPLOYMENTS)
  test.describe(deployment.title, () => {
    // The second test signs in as rhea, whom the first makes: a retry (a new worker, so a new
    // database) must run them together.
    test.describe.configure({ mode: "serial" });
    test.setTimeout(300_000);

    let database: ScratchDatabase;
    let servers: ServerProcess[] = [];

    test.beforeAll(async () => {
      database = await createScratchDatabase("e2e_two");
      const env = {
        DATABASE_URL: database.url,
        SECRET_KEY: randomBytes(32).toString("hex"),
        BOOTSTRAP_ADMIN_TOKEN: ADMIN_TOKEN,
        MARKETPLACE_ALLOWED_HOSTS: "127.0.0.1",
        UPDATE_CHECK_INTERVAL_MINUTES: String(CHECK_MINUTES),
        // As behind one reverse proxy: a test plays a second client address with X-Forwarded-For.
        TRUSTED_PROXIES: "1",
      };
      servers = deployment.ports.map(
        (port) => new ServerProcess(port, { ...env, WEB_CONCURRENCY: String(deployment.workers), LOG_LEVEL: "info" }),
      );
      await Promise.all(servers.map((s) => s.start()));
    });

    test.afterAll(async () => {
      await Promise.all(servers.map((s) => s.stop()));
      await database.drop();
    });

    /** Where "one process" and "the other" are: two ports, or the one port of both workers. */
    const bases = () => [servers[0]!.baseUrl, servers.at(-1)!.baseUrl] as [string, string];
    /** Behind one port, each request on a new connection, so the workers take them in turn. */
    const perRequestConnection: Record<string, string> = deployment.workers > 1 ? { connection: "close" } : {};

    test("the 11th failed sign-in for one id is refused whichever process gets it, while another user signs in", async ({ playwright }) => {
      const [a, b] = bases();
      const request = await playwright.request.newContext({ extraHTTPHeaders: perRequestConnection });
      for (const [id, password] of [
        ["quinn", QUINN_PASSWORD],
        ["rhea", RHEA_PASSWORD],
      ]) {
        const created = await request.post(`${a}/ext/svc/admin/users`, { headers: bearer, data: { id, password } });
        expect(created.status()).toBe(201);
      }
      for (let i = 0; i < 10; i++) {
        const res = await signInOver(request, i % 2 ? a : b, "quinn", "a wrong guess");
        expect(res.status(), `attempt ${i + 1}`).toBe(401);
      }
      for (const base of [a, b]) {
        const refused = await signInOver(request, base, "quinn", QUINN_PASSWORD);
        expect(refused.status()).toBe(429);
        expect(Number(refused.headers()["retry-after"])).toBeGreaterThan(0);
        expect(refused.headers()["content-type"]).toBe("application/problem+json");
      }
      const rhea = await signInOver(request, b, "rhea", RHEA_PASSWORD);
      expect(rhea.status()).toBe(200);
      // The limit is on the pair (CONTRACT §18): quinn from another address signs in on either process.
      for (const base of [a, b]) {
        const elsewhere = await signInOver(request, base, "quinn", QUINN_PASSWORD, { "x-forwarded-for": "198.51.100.2" });
        expect(elsewhere.status()).toBe(200);
      }
      await request.dispose();
    });

    test("signing out on one process ends the session on the other; a key revoked on one is refused by the other", async ({
      playwright,
    }) => {
      const [a, b] = bases();
      const browser = await playwright.request.newContext({ extraHTTPHeaders: perRequestConnection });
      expect((await signInOver(browser, a, "rhea", RHEA_PASSWORD)).status()).toBe(200);
      const cookie = (await browser.storageState()).cookies.find((c) => c.name === "next-auth.session-token")!;
      expect(cookie).toBeTruthy();
      const replay = await playwright.request.newContext({
        extraHTTPHeaders: {
          ...perRequestConnection,
          cookie: `${cookie.name}=${cookie.value}`,
          "x-requested-with": "bank-templates-console",
        },
      });
      expect((await replay.get(`${b}/ext/svc/me`)).status()).toBe(200);
      const { csrfToken } = await (await browser.get(`${a}/api/auth/csrf`)).json();
      await browser.post(`${a}/api/auth/signout`, { form: { csrfToken, json: "true" } });
      expect((await replay.get(`${b}/ext/svc/me`)).status()).toBe(401);

      const key = await (await browser.post(`${a}/ext/svc/admin/users/rhea/api-keys`, { headers: bearer, data: {} })).json();
      expect((await browser.get(`${b}/ext/svc/me`, { headers: { authorization: `Bearer ${key.token}` } })).status()).toBe(200);
      expect((await browser.delete(`${a}/ext/svc/admin/users/rhea/api-keys/${key.id}`, { headers: bearer })).status()).toBe(204);
      expect((await browser.get(`${b}/ext/svc/me`, { headers: { authorization: `Bearer ${key.token}` } })).status()).toBe(401);
      await Promise.all([browser.dispose(), replay.dispose()]);
    });

    test("with a check every interval, a catalog change reaches both processes' templates within 2 intervals, one check at a time", async ({
      playwright,
    }) => {
      const [a, b] = bases();
      const market = await new E2eMarketplace().start();
      const entry = (id: string, content: string): CatalogEntry => ({
        id,
        name: id,
        manifest: e2eManifest({ directives: [{ name: "Rule", content }] }),
      });
      const request = await playwright.request.newContext({ extraHTTPHeaders: { ...perRequestConnection, ...bearer } });
      try {
        market.setCatalog("sched", [entry("sched-a", "First."), entry("sched-b", "First.")]);
        expect(
          (
            await request.post(`${a}/ext/svc/admin/template-sources`, { data: { url: market.sourceUrl("sched"), alias: "sched" } })
          ).status(),
        ).toBe(201);
        for (const id of ["sched-a", "sched-b"]) {
          expect((await request.post(`${a}/ext/svc/admin/templates/${id}/install`, { data: { source_name: "sched" } })).status()).toBe(200);
        }
        const catalogPath = "/sched/templates.json";
        market.setCatalog("sched", [entry("sched-a", "Second."), entry("sched-b", "First.")]);
        const changedAt = Date.now();
        const seenBefore = market.requests.length;

        // Nobody asks for a check: the scheduler alone brings the news, read here through the other process.
        let template: { source_revision: string; latest_revision: string | null } | undefined;
        await expect
          .poll(
            async () => {
              template = await (await request.get(`${b}/ext/svc/admin/templates/sched-a`)).json();
              return template!.latest_revision !== template!.source_revision;
            },
            { timeout: 2 * CHECK_MS, intervals: [250] },
          )
          .toBe(true);
        expect(Date.now() - changedAt).toBeLessThan(2 * CHECK_MS);
        const unchanged = await (await request.get(`${a}/ext/svc/admin/templates/sched-b`)).json();
        expect(unchanged.latest_revision).toBe(unchanged.source_revision);

        // One check at a time, an interval apart, across both processes: each scheduled run sends
        // one (conditional) catalog request, so consecutive requests are at least an interval apart.
        // Watched until three runs were seen, which with both processes' timers polling takes a few intervals.
        const catalogRequestTimes = () =>
          market.requestTimes.slice(seenBefore).filter((_, i) => market.requests[seenBefore + i] === catalogPath);
        await expect.poll(() => catalogRequestTimes().length, { timeout: 6 * CHECK_MS, intervals: [250] }).toBeGreaterThanOrEqual(3);
        const times = catalogRequestTimes();
        // A run starts only an interval after the last one finished (job_leases, PostgreSQL's clock); this
        // process's clock reads each request a little later than it was sent: a tenth of an interval of slack.
        for (let i = 1; i < times.length; i++)
          expect(times[i]! - times[i - 1]!, `requests ${i} and ${i + 1}`).toBeGreaterThan(0.9 * CHECK_MS);
      } finally {
        await Promise.all([request.dispose(), market.stop()]);
      }
    });

    test("every process served requests", () => {
      // Request lines carry the pid of the process that answered (lib/platform/log.ts).
      const pids = new Set(
        servers.flatMap((server) =>
          server.log
            .split("\n")
            .filter((line) => line.includes('"msg":"request"'))
            .map((line) => (JSON.parse(line) as { pid: number }).pid),
        ),
      );
      expect(pids.size).toBe(2);
    });
  });
