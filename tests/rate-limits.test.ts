import "./support/nextauth"; // first: sets up what Next's server provides before anything loads Next
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it, onTestFinished } from "vitest";
import { openPostgres } from "@/db/client";
import { rateLimits, signInAddresses } from "@/db/schema";
import { tooManySignInsMessage } from "@/lib/contracts/identity/sign-in-messages";
import { clientAddress, UNKNOWN_ADDRESS } from "@/lib/platform/client-address";
import { appendPeerAddressToForwardedFor } from "@/lib/platform/peer-address";
import { setApp } from "@/lib/server/app";
import type { AppContext } from "@/lib/services/context";
import { isKnownSignInAddress, pruneSignInAddresses, recordSignInAddress } from "@/lib/services/ratelimit/known-addresses";
import {
  API_KEY_FAILURES_PER_ADDRESS,
  SIGN_IN_FAILURES_PER_ADDRESS,
  SIGN_IN_FAILURES_PER_USER_AND_ADDRESS,
} from "@/lib/services/ratelimit/limits";
import { admitSignInAttempt } from "@/lib/services/ratelimit/sign-in";
import { sweepExpiredCounters } from "@/lib/services/ratelimit/window-counter";
import { ADMIN_TOKEN, request, useTestApp } from "./support/app";
import { callNextAuth, type PasswordSignIn, signInWithPassword } from "./support/nextauth";

const t = useTestApp();
const onPostgres = process.env.TEST_DB === "postgres";
const RATE_LIMITED = "urn:bank-templates:problem:rate-limited";

const passwordOf = (id: string) => `${id}'s long password`;

async function createUser(id: string) {
  const created = await t.admin.post("/ext/svc/admin/users", { id, password: passwordOf(id) });
  expect(created.status).toBe(201);
}

/** The stored count of one counter (0 when it has no row). */
async function storedCount(bucket: string, key: string): Promise<number> {
  const [row] = await t.app.db
    .select({ count: rateLimits.count })
    .from(rateLimits)
    .where(and(eq(rateLimits.bucket, bucket), eq(rateLimits.key, key)));
  return row?.count ?? 0;
}

// The pair counter's key as lib/services/ratelimit/sign-in.ts writes it for a plain user id.
const pairKeyOf = (userId: string, address: string) => `${userId} ${address}`;
const pairCount = (userId: string, address: string) =>
  storedCount(SIGN_IN_FAILURES_PER_USER_AND_ADDRESS.bucket, pairKeyOf(userId, address));

function expectFailedSignIn(answer: PasswordSignIn) {
  expect(answer.status).toBe(401);
  expect(answer.error).toBe("CredentialsSignin");
  expect(answer.sessionCookie).toBeNull();
}

function expectSignedIn(answer: PasswordSignIn) {
  expect(answer.status).toBe(200);
  expect(answer.error).toBeNull();
  expect(answer.sessionCookie).not.toBeNull();
}

function expectRateLimited(answer: { status: number; headers: Headers; body: any }, maxSeconds: number) {
  expect(answer.status).toBe(429);
  expect(answer.headers.get("content-type")).toBe("application/problem+json");
  const retryAfter = Number(answer.headers.get("retry-after"));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(maxSeconds);
  expect(answer.body).toMatchObject({ type: RATE_LIMITED, status: 429, title: "Too Many Requests" });
  expect(answer.body.request_id).toBe(answer.headers.get("x-request-id"));
}

describe("failed sign-ins per (user id, client address)", () => {
  it("sets up users with passwords", async () => {
    for (const id of ["alice", "bob", "carol", "dave", "erin", "fred", "gina", "hank"]) await createUser(id);
    const root = await t.admin.post("/ext/svc/admin/users", { id: "root", role: "admin", password: passwordOf("root") });
    expect(root.status).toBe(201);
  });

  it("answers the 11th failure of one pair with 429 while the same user signs in from another address, and others from this one", async () => {
    const address = "198.51.100.7";
    for (let i = 1; i <= 10; i++) {
      expectFailedSignIn(await signInWithPassword("alice", `wrong guess ${i}`, address));
      if (i === 5) expectSignedIn(await signInWithPassword("bob", passwordOf("bob"), address));
    }
    // The 11th attempt of the pair is refused before the password is looked at, even the right one.
    const refused = await signInWithPassword("alice", passwordOf("alice"), address);
    expectRateLimited(refused, SIGN_IN_FAILURES_PER_USER_AND_ADDRESS.windowSeconds);
    expect(refused.body.detail).toBe("Too many attempts from here. Try again in 15 minutes.");
    expect(refused.sessionCookie).toBeNull();
    // However the name is written, it is the same pair.
    expectRateLimited(await signInWithPassword("  ALICE ", passwordOf("alice"), address), 900);
    // Another user at the very same address is not slowed down.
    expectSignedIn(await signInWithPassword("bob", passwordOf("bob"), address));
    // The same user from elsewhere is not locked out (CONTRACT §18), and one guess there is just a failure.
    expectFailedSignIn(await signInWithPassword("alice", "wrong guess elsewhere", "192.0.2.44"));
    expectSignedIn(await signInWithPassword("alice", passwordOf("alice"), "192.0.2.44"));
    expect(await pairCount("alice", address)).toBe(10);
    expect(await pairCount("alice", "192.0.2.44")).toBe(1);
  });

  it("counts neither successes nor refused attempts: the counters hold failures only", async () => {
    const address = "198.51.100.7";
    const before = await storedCount(SIGN_IN_FAILURES_PER_ADDRESS.bucket, address);
    for (let i = 0; i < 60; i++) expect((await signInWithPassword("alice", "anything", address)).status).toBe(429);
    expect(await storedCount(SIGN_IN_FAILURES_PER_ADDRESS.bucket, address)).toBe(before);
    expectSignedIn(await signInWithPassword("bob", passwordOf("bob"), address));
    expect(await storedCount(SIGN_IN_FAILURES_PER_ADDRESS.bucket, address)).toBe(before);
    expect(await pairCount("bob", address)).toBe(0);
    expect(await pairCount("alice", address)).toBe(10);
  });

  it("does not count a post next-auth refuses before checking a password (no CSRF token)", async () => {
    const address = "198.51.100.9";
    const answer = await callNextAuth("POST", "/api/auth/callback/credentials", {
      headers: { "x-forwarded-for": address },
      form: { username: "carol", password: "no csrf token", json: "true" },
    });
    expect(answer.body.url).toContain("csrf=true");
    expect(await pairCount("carol", address)).toBe(0);
    expect(await storedCount(SIGN_IN_FAILURES_PER_ADDRESS.bucket, address)).toBe(0);
  });

  it("lets at most 10 of 30 simultaneous guesses of one pair reach the password check", async () => {
    const address = "192.0.2.100";
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => signInWithPassword("carol", `parallel guess ${i}`, address)));
    expect(answers.filter((a) => a.status === 401)).toHaveLength(10);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(20);
    expect(await pairCount("carol", address)).toBe(10);
    expect(await storedCount(SIGN_IN_FAILURES_PER_ADDRESS.bucket, address)).toBe(10);
  });

  it("lets the pair in again once the window has passed", async () => {
    await t.app.db
      .update(rateLimits)
      .set({ windowStart: sql`${rateLimits.windowStart} - interval '15 minutes'` })
      .where(
        and(eq(rateLimits.bucket, SIGN_IN_FAILURES_PER_USER_AND_ADDRESS.bucket), eq(rateLimits.key, pairKeyOf("alice", "198.51.100.7"))),
      );
    expectSignedIn(await signInWithPassword("alice", passwordOf("alice"), "198.51.100.7"));
  });
});

/** `failures` failed sign-ins from `address` by user names that exist nowhere, 10 at a time. */
async function failFromAddress(address: string, prefix: string, failures: number): Promise<void> {
  for (let done = 0; done < failures; done += 10) {
    const answers = await Promise.all(
      Array.from({ length: Math.min(10, failures - done) }, (_, i) =>
        signInWithPassword(`${prefix}-${done + i}`, "some password", address),
      ),
    );
    answers.forEach(expectFailedSignIn);
  }
}

describe("failed sign-ins per client address", () => {
  it("throttles the attacker's address and pair while the admin signs in from a second address", async () => {
    const attacker = "203.0.113.66";
    for (let i = 1; i <= 10; i++) expectFailedSignIn(await signInWithPassword("root", `guess ${i}`, attacker));
    await failFromAddress(attacker, "spray", 40);
    expect(await storedCount(SIGN_IN_FAILURES_PER_ADDRESS.bucket, attacker)).toBe(50);
    // The 51st failure from the address is refused.
    expectRateLimited(await signInWithPassword("spray-51", "some password", attacker), 900);
    // The pair is throttled: even the right password from the attacker's address is refused.
    expectRateLimited(await signInWithPassword("root", passwordOf("root"), attacker), 900);
    // So is anyone new at the address.
    expectRateLimited(await signInWithPassword("dave", passwordOf("dave"), attacker), 900);
    // The admin, from anywhere else, signs in.
    expectSignedIn(await signInWithPassword("root", passwordOf("root"), "198.51.100.200"));
  });

  it("lets a user who signed in from the address before pass its limit, and answers 429 to one who never did", async () => {
    const office = "203.0.113.50";
    expectSignedIn(await signInWithPassword("gina", passwordOf("gina"), office));
    expectSignedIn(await signInWithPassword("hank", passwordOf("hank"), "198.51.100.51"));
    const [known] = await t.app.db
      .select()
      .from(signInAddresses)
      .where(and(eq(signInAddresses.userId, "gina"), eq(signInAddresses.address, office)));
    expect(known).toBeDefined();

    await failFromAddress(office, "stranger", 50);
    expectRateLimited(await signInWithPassword("stranger-51", "some password", office), 900);
    const refused = await signInWithPassword("hank", passwordOf("hank"), office);
    expectRateLimited(refused, SIGN_IN_FAILURES_PER_ADDRESS.windowSeconds);
    expect(await pairCount("hank", office)).toBe(0);
    expectSignedIn(await signInWithPassword("gina", passwordOf("gina"), office));
    // A known user's own guesses are still limited per pair.
    expectFailedSignIn(await signInWithPassword("gina", "a wrong password", office));
    expect(await pairCount("gina", office)).toBe(1);
    // Elsewhere hank is not throttled.
    expectSignedIn(await signInWithPassword("hank", passwordOf("hank"), "203.0.113.51"));

    // A success older than 30 days exempts nobody.
    await t.app.db
      .update(signInAddresses)
      .set({ lastSuccessAt: sql`now() - interval '31 days'` })
      .where(and(eq(signInAddresses.userId, "gina"), eq(signInAddresses.address, office)));
    expectRateLimited(await signInWithPassword("gina", passwordOf("gina"), office), 900);
  });

  it("counts an IPv6 client per /64, so rotating addresses inside it does not help", async () => {
    for (let i = 1; i <= 50; i++) {
      const admission = await admitSignInAttempt(
        t.app.db,
        `v6-stranger-${i}`,
        clientAddress(new Headers({ "x-forwarded-for": `2001:db8:5:6::${i.toString(16)}` })),
      );
      expect(admission.admitted).toBe(true);
    }
    const next = await signInWithPassword("dave", passwordOf("dave"), "2001:db8:5:6:ffff::1");
    expectRateLimited(next, 900);
    expectSignedIn(await signInWithPassword("dave", passwordOf("dave"), "2001:db8:5:7::1"));
  });
});

describe("the addresses users signed in from", () => {
  it("are pruned once older than 30 days, and only those", async () => {
    await t.app.db.insert(signInAddresses).values([
      { userId: "erin", address: "192.0.2.201", lastSuccessAt: sql`now() - interval '31 days'` },
      { userId: "erin", address: "192.0.2.202", lastSuccessAt: sql`now() - interval '29 days'` },
    ]);
    await pruneSignInAddresses(t.app.db);
    const left = await t.app.db
      .select({ address: signInAddresses.address })
      .from(signInAddresses)
      .where(eq(signInAddresses.userId, "erin"));
    expect(left.map((r) => r.address)).toEqual(["192.0.2.202"]);
  });
});

describe.runIf(onPostgres)("sign-in limits shared by two app instances on one PostgreSQL database", () => {
  /** Runs `use` with a second application (its own connection pool) on the same database, as another process has. */
  async function withSecondInstance(use: (other: AppContext) => Promise<void>): Promise<void> {
    const handle = await openPostgres(t.databaseUrl!);
    try {
      await use({ ...t.app, db: handle.db, database: handle });
    } finally {
      setApp(t.app);
      await handle.close();
    }
  }

  it("answers the 11th failure of a pair with 429 when the attempts were spread over both, and not the same user elsewhere", async () => {
    await withSecondInstance(async (other) => {
      const address = "198.51.100.77";
      for (let i = 1; i <= 10; i++) {
        setApp(i % 2 ? t.app : other);
        expectFailedSignIn(await signInWithPassword("erin", `wrong guess ${i}`, address));
      }
      setApp(other);
      expectRateLimited(await signInWithPassword("erin", passwordOf("erin"), address), 900);
      expectSignedIn(await signInWithPassword("fred", passwordOf("fred"), address));
      setApp(t.app);
      expectRateLimited(await signInWithPassword("erin", passwordOf("erin"), address), 900);
      expectSignedIn(await signInWithPassword("fred", passwordOf("fred"), address));
      expectSignedIn(await signInWithPassword("erin", passwordOf("erin"), "198.51.100.78"));
    });
  });

  it("answers 429 from an address after 50 failures spread over both, except to a user known there", async () => {
    await withSecondInstance(async (other) => {
      const address = "198.51.100.79";
      setApp(other);
      expectSignedIn(await signInWithPassword("fred", passwordOf("fred"), address));
      for (let i = 0; i < 50; i++) {
        setApp(i % 2 ? t.app : other);
        expectFailedSignIn(await signInWithPassword(`two-process-stranger-${i}`, "some password", address));
      }
      expectRateLimited(await signInWithPassword("two-process-stranger-51", "some password", address), 900);
      for (const app of [t.app, other]) {
        setApp(app);
        expectRateLimited(await signInWithPassword("dave", passwordOf("dave"), address), 900);
        expectSignedIn(await signInWithPassword("fred", passwordOf("fred"), address));
      }
    });
  });

  it("records simultaneous sign-ins of one user from one address through both pools as one row", async () => {
    await withSecondInstance(async (other) => {
      const address = "198.51.100.81";
      await Promise.all(Array.from({ length: 20 }, (_, i) => recordSignInAddress(i % 2 ? t.app.db : other.db, "hank", address)));
      const rows = await t.app.db
        .select()
        .from(signInAddresses)
        .where(and(eq(signInAddresses.userId, "hank"), eq(signInAddresses.address, address)));
      expect(rows).toHaveLength(1);
      expect(await isKnownSignInAddress(other.db, "hank", address)).toBe(true);
    });
  });

  it("admits exactly 10 of 40 simultaneous attempts of one pair made through both connection pools", async () => {
    await withSecondInstance(async (other) => {
      const admissions = await Promise.all(
        Array.from({ length: 40 }, (_, i) => admitSignInAttempt(i % 2 ? t.app.db : other.db, "racer", "192.0.2.240")),
      );
      expect(admissions.filter((a) => a.admitted)).toHaveLength(10);
    });
  });

  it("never deadlocks when refused attempts take their count back while others are counted, through both pools", async () => {
    // A refused attempt takes back both of its counters (address and pair) while other attempts
    // count them: each statement must lock the two rows in the same order (CI once saw a deadlock).
    await withSecondInstance(async (other) => {
      for (let round = 0; round < 15; round++) {
        const address = `192.0.2.${100 + round}`;
        const admissions = await Promise.all(
          Array.from({ length: 40 }, (_, i) => admitSignInAttempt(i % 2 ? t.app.db : other.db, `racer${round}`, address)),
        );
        expect(
          admissions.filter((a) => a.admitted),
          `round ${round}`,
        ).toHaveLength(10);
      }
    });
  });
});

describe("failed API-key authentications per client address", () => {
  const wrongKey = (i: number) => `hbk_${"wrong".repeat(8)}${i}`;
  const from = (address: string, token: string) => request("GET", "/ext/svc/me", { token, headers: { "x-forwarded-for": address } });

  it("answers the 1,001st failure within a minute with 429, counts no success, and still serves a valid key from there", async () => {
    const address = "203.0.113.99";
    for (let batch = 0; batch < 20; batch++) {
      const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => from(address, wrongKey(batch * 50 + i))));
      expect(answers.map((a) => a.status)).toEqual(Array(50).fill(401));
      // A working key from the same address meanwhile: answered normally, not counted.
      expect((await from(address, ADMIN_TOKEN)).status).toBe(200);
    }
    expect(await storedCount(API_KEY_FAILURES_PER_ADDRESS.bucket, address)).toBe(1000);

    const refused = await from(address, wrongKey(1001));
    expectRateLimited(refused, API_KEY_FAILURES_PER_ADDRESS.windowSeconds);
    // A valid key is never refused (CONTRACT §18), and costs the counter nothing.
    expect((await from(address, ADMIN_TOKEN)).status).toBe(200);
    // Further failures are refused from memory, without being counted.
    expectRateLimited(await from(address, wrongKey(1002)), 60);
    expect(await storedCount(API_KEY_FAILURES_PER_ADDRESS.bucket, address)).toBe(1001);
    // Other addresses are unaffected.
    expect((await from("203.0.113.100", ADMIN_TOKEN)).status).toBe(200);
    expect((await from("203.0.113.100", wrongKey(0))).status).toBe(401);
  });
});

describe("the client address", () => {
  const headers = (forwardedFor?: string) => new Headers(forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor });

  it("is the rightmost X-Forwarded-For entry (the one the server appended), or the one a trusted proxy appended", () => {
    expect(clientAddress(headers("10.0.0.1"))).toBe("10.0.0.1");
    expect(clientAddress(headers("6.6.6.6, 7.7.7.7, 10.0.0.1"))).toBe("10.0.0.1");
    expect(clientAddress(headers("6.6.6.6, 7.7.7.7, 10.0.0.1"), 1)).toBe("7.7.7.7");
    expect(clientAddress(headers("10.0.0.1"), 3)).toBe("10.0.0.1");
    expect(clientAddress(headers("::ffff:10.0.0.1"))).toBe("10.0.0.1");
    expect(clientAddress(headers("10.0.0.1:5678"))).toBe("10.0.0.1");
    expect(clientAddress(headers("[2001:db8::1]:443"))).toBe("2001:db8::/64");
    expect(clientAddress(headers("2001:db8:0:0:abcd::1"))).toBe("2001:db8::/64");
    expect(clientAddress(headers())).toBe(UNKNOWN_ADDRESS);
    expect(clientAddress(headers("not an address"))).toBe(UNKNOWN_ADDRESS);
  });

  it("cannot be chosen by the client once the server appends the peer address", async () => {
    // The hook patches every server of the process; the test files after this one in the worker
    // (vitest.config.mts: isolate false) reach their servers without it, as before.
    const emits = [http.Server.prototype.emit, https.Server.prototype.emit] as const;
    onTestFinished(() => {
      [http.Server.prototype.emit, https.Server.prototype.emit] = emits;
      delete (globalThis as Record<symbol, unknown>)[Symbol.for("bank-template-console.peer-address")];
    });
    appendPeerAddressToForwardedFor();
    appendPeerAddressToForwardedFor(); // installing twice appends once
    const server = http.createServer((req, res) => {
      const seen = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") seen.set(name, value);
      res.end(JSON.stringify({ forwardedFor: req.headers["x-forwarded-for"], client: clientAddress(seen) }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const spoofed = await (await fetch(`http://127.0.0.1:${port}/`, { headers: { "x-forwarded-for": "6.6.6.6" } })).json();
      expect(spoofed).toEqual({ forwardedFor: "6.6.6.6, 127.0.0.1", client: "127.0.0.1" });
      const plain = await (await fetch(`http://127.0.0.1:${port}/`)).json();
      expect(plain).toEqual({ forwardedFor: "127.0.0.1", client: "127.0.0.1" });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("the sign-in page's message", () => {
  it("says how long to wait: whole minutes, rounded up, or seconds under a minute", () => {
    expect(tooManySignInsMessage(900)).toBe("Too many attempts from here. Try again in 15 minutes.");
    expect(tooManySignInsMessage(661)).toBe("Too many attempts from here. Try again in 12 minutes.");
    expect(tooManySignInsMessage(61)).toBe("Too many attempts from here. Try again in 2 minutes.");
    expect(tooManySignInsMessage(60)).toBe("Too many attempts from here. Try again in 1 minute.");
    expect(tooManySignInsMessage(59)).toBe("Too many attempts from here. Try again in 59 seconds.");
    expect(tooManySignInsMessage(1)).toBe("Too many attempts from here. Try again in 1 second.");
    expect(tooManySignInsMessage(Number.NaN)).toBe("Too many attempts from here. Try again in 15 minutes.");
  });
});

describe("stale counters", () => {
  it("are deleted once their window has passed, and only those", async () => {
    const bucket = API_KEY_FAILURES_PER_ADDRESS.bucket;
    await t.app.db.insert(rateLimits).values([
      { bucket, key: "stale-1", windowStart: sql`now() - interval '2 minutes'`, count: 5 },
      { bucket, key: "stale-2", windowStart: sql`now() - interval '61 seconds'`, count: 0 },
      { bucket, key: "fresh", windowStart: sql`now() - interval '30 seconds'`, count: 5 },
      {
        bucket: SIGN_IN_FAILURES_PER_USER_AND_ADDRESS.bucket,
        key: "other-bucket",
        windowStart: sql`now() - interval '2 minutes'`,
        count: 5,
      },
    ]);
    await sweepExpiredCounters(t.app.db, API_KEY_FAILURES_PER_ADDRESS);
    expect(await storedCount(bucket, "stale-1")).toBe(0);
    expect(await storedCount(bucket, "stale-2")).toBe(0);
    expect(await storedCount(bucket, "fresh")).toBe(5);
    expect(await storedCount(SIGN_IN_FAILURES_PER_USER_AND_ADDRESS.bucket, "other-bucket")).toBe(5);
  });
});
