/**
 * CONTRACT §18: each user holds at most MAX_SERVICE_ACCOUNTS_PER_USER service accounts,
 * MAX_PERSONAL_SOURCES_PER_USER personal sources and MAX_PERSONAL_TEMPLATES_PER_USER personal
 * templates; one more answers 409 `limit-reached`. Each user is seeded directly in the database
 * up to one below the bound, so the tests stay fast. The races only truly interleave on
 * PostgreSQL; on PGlite (one connection) they must answer the same.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { serviceAccounts, templateSources, templates } from "@/db/schema";
import { MAX_PERSONAL_SOURCES_PER_USER, MAX_PERSONAL_TEMPLATES_PER_USER, MAX_SERVICE_ACCOUNTS_PER_USER } from "@/lib/contracts/limits";
import { problemTypeUri } from "@/lib/contracts/problem-types";
import { type ApiResponse, as, type Client, useTestApp } from "./support/app";
import { catalog, catalogEntry, manifest } from "./support/fixtures";
import { useMarketplace } from "./support/use-marketplace";

const t = useTestApp();
const market = useMarketplace(t);
const RACERS = 6;

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

function expectLimitReached(res: ApiResponse, max: number): void {
  expect(res.status, res.text).toBe(409);
  expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  expect(res.body.type).toBe(problemTypeUri("limit-reached"));
  expect(res.body.detail).toContain(`at most ${max}`);
  expect(res.body.detail).toContain("Delete one first");
}

/** The statuses of `count` creations sent at once by two clients of the same user, in turn. */
async function race(clients: [Client, Client], create: (client: Client, i: number) => Promise<ApiResponse>, count: number) {
  const answers = await Promise.all(range(count).map((i) => create(clients[i % 2]!, i)));
  for (const res of answers) expect(res.status, res.text).toBeLessThan(500);
  return answers;
}

/** A second API key of an existing user: the race comes from two credentials. */
async function secondClient(userId: string): Promise<Client> {
  const key = await t.admin.post(`/ext/svc/admin/users/${userId}/api-keys`, { description: "second" });
  expect(key.status).toBe(201);
  return as(key.body.token);
}

describe("service accounts per user", () => {
  let sam: Client;
  let samToo: Client;
  let racer: Client;
  let racerToo: Client;
  beforeAll(async () => {
    sam = await t.user("sam");
    samToo = await secondClient("sam");
    racer = await t.user("sa-racer");
    racerToo = await secondClient("sa-racer");
    for (const owner of ["sam", "sa-racer"]) {
      await t.app.db
        .insert(serviceAccounts)
        .values(
          range(MAX_SERVICE_ACCOUNTS_PER_USER - 1).map((i) => ({ ownerUserId: owner, id: `seeded-${i}`, displayName: `Seeded ${i}` })),
        );
    }
  });

  it("the last place is taken, one more is 409 limit-reached; after a deletion there is room again", async () => {
    expect((await sam.post("/ext/svc/me/service-accounts", { id: "last" })).status).toBe(201);
    expectLimitReached(await samToo.post("/ext/svc/me/service-accounts", { id: "one-more" }), MAX_SERVICE_ACCOUNTS_PER_USER);
    // Another user is not held back by sam's bound.
    expect((await t.admin.post("/ext/svc/me/service-accounts", { id: "admin-bot" })).status).toBe(201);
    expect((await sam.delete("/ext/svc/me/service-accounts/seeded-0")).status).toBe(204);
    expect((await sam.post("/ext/svc/me/service-accounts", { id: "one-more" })).status).toBe(201);
  });

  it(`${RACERS} creations racing for the last place: exactly one succeeds`, async () => {
    const answers = await race(
      [racer, racerToo],
      (client, i) => client.post("/ext/svc/me/service-accounts", { id: `racing-${i}` }),
      RACERS,
    );
    expect(answers.filter((res) => res.status === 201)).toHaveLength(1);
    for (const res of answers.filter((res) => res.status !== 201)) expectLimitReached(res, MAX_SERVICE_ACCOUNTS_PER_USER);
    const held = await t.app.db.select().from(serviceAccounts).where(eq(serviceAccounts.ownerUserId, "sa-racer"));
    expect(held).toHaveLength(MAX_SERVICE_ACCOUNTS_PER_USER);
  });
});

const seedSources = (owner: string) =>
  t.app.db.insert(templateSources).values(
    range(MAX_PERSONAL_SOURCES_PER_USER - 1).map((i) => ({
      scope: "personal" as const,
      owner,
      name: `seeded-${i}`,
      url: `https://example.com/seeded-${i}`,
    })),
  );

describe("personal template sources per user", () => {
  let sue: Client;
  let racer: Client;
  let racerToo: Client;
  beforeAll(async () => {
    sue = await t.user("sue");
    racer = await t.user("src-racer");
    racerToo = await secondClient("src-racer");
    await seedSources("sue");
    await seedSources("src-racer");
  });

  const source = (alias: string) => ({ url: `https://example.com/${alias}`, alias });

  it("the last place is taken, one more is 409 limit-reached; server sources do not count", async () => {
    expect((await sue.post("/ext/svc/me/template-sources", source("last"))).status).toBe(201);
    expectLimitReached(await sue.post("/ext/svc/me/template-sources", source("one-more")), MAX_PERSONAL_SOURCES_PER_USER);
    expect((await t.admin.post("/ext/svc/admin/template-sources", source("server-one"))).status).toBe(201);
    expect((await sue.delete("/ext/svc/me/template-sources/seeded-0")).status).toBe(204);
    expect((await sue.post("/ext/svc/me/template-sources", source("one-more"))).status).toBe(201);
  });

  it(`${RACERS} creations racing for the last place: exactly one succeeds`, async () => {
    const answers = await race(
      [racer, racerToo],
      (client, i) => client.post("/ext/svc/me/template-sources", source(`racing-${i}`)),
      RACERS,
    );
    expect(answers.filter((res) => res.status === 201)).toHaveLength(1);
    for (const res of answers.filter((res) => res.status !== 201)) expectLimitReached(res, MAX_PERSONAL_SOURCES_PER_USER);
    const held = await t.app.db.select().from(templateSources).where(eq(templateSources.owner, "src-racer"));
    expect(held).toHaveLength(MAX_PERSONAL_SOURCES_PER_USER);
  });
});

const seedTemplates = (owner: string) =>
  t.app.db.insert(templates).values(
    range(MAX_PERSONAL_TEMPLATES_PER_USER - 1).map((i) => ({
      id: `seeded-${i}`,
      scope: "personal" as const,
      owner,
      name: `Seeded ${i}`,
      manifest: manifest(),
    })),
  );

describe("personal templates per user", () => {
  let tom: Client;
  let installer: Client;
  let racer: Client;
  let racerToo: Client;
  beforeAll(async () => {
    market.setFile("/bounds/templates.json", catalog(...range(RACERS + 2).map((i) => catalogEntry(`market-${i}`))));
    tom = await t.user("tom");
    installer = await t.user("installer");
    racer = await t.user("tpl-racer");
    racerToo = await secondClient("tpl-racer");
    for (const owner of ["tom", "installer", "tpl-racer"]) await seedTemplates(owner);
    for (const client of [installer, racer]) {
      expect((await client.post("/ext/svc/me/template-sources", { url: `${market.url}/bounds`, alias: "bounds" })).status).toBe(201);
    }
  });

  const template = (id: string) => ({ id, name: id, manifest: manifest() });

  it("create: the last place is taken, one more is 409 limit-reached; server templates do not count", async () => {
    expect((await tom.post("/ext/svc/me/templates", template("last"))).status).toBe(200);
    expectLimitReached(await tom.post("/ext/svc/me/templates", template("one-more")), MAX_PERSONAL_TEMPLATES_PER_USER);
    expect((await t.admin.post("/ext/svc/admin/templates", template("server-one"))).status).toBe(200);
    expect((await tom.delete("/ext/svc/me/templates/seeded-0")).status).toBe(204);
    expect((await tom.post("/ext/svc/me/templates", template("one-more"))).status).toBe(200);
  });

  it("install counts as well: the last place is taken, one more is 409 limit-reached", async () => {
    expect((await installer.post("/ext/svc/me/templates/market-0/install", { source_name: "bounds" })).status).toBe(200);
    const more = await installer.post("/ext/svc/me/templates/market-1/install", { source_name: "bounds" });
    expectLimitReached(more, MAX_PERSONAL_TEMPLATES_PER_USER);
    expect((await installer.get("/ext/svc/me/templates/market-1")).status).toBe(404);
  });

  it(`${RACERS} creations and installs racing for the last place: exactly one succeeds`, async () => {
    const answers = await race(
      [racer, racerToo],
      (client, i) =>
        i % 3 === 0
          ? client.post(`/ext/svc/me/templates/market-${i}/install`, { source_name: "bounds" })
          : client.post("/ext/svc/me/templates", template(`racing-${i}`)),
      RACERS,
    );
    expect(answers.filter((res) => res.status === 200)).toHaveLength(1);
    for (const res of answers.filter((res) => res.status !== 200)) expectLimitReached(res, MAX_PERSONAL_TEMPLATES_PER_USER);
    const held = await t.app.db.select({ id: templates.id }).from(templates).where(eq(templates.owner, "tpl-racer"));
    expect(held).toHaveLength(MAX_PERSONAL_TEMPLATES_PER_USER);
  });
});
