// The webhook case of `npm run bench` (issue 37, CONTRACT §20): 1,000 events delivered by the
// app's production server (one worker process, its delivery worker inside it as in production) to
// a receiver on this machine, while autocannon reads one template from the same server; then the
// same reads for as long without deliveries. Rounds alternate. It prints the events per second (alone,
// and while the reads run) and the template reads' req/s with and without (medians of the rounds),
// and holds the API to at least 0.9 of its rate.
// PostgreSQL only (BENCH_DATABASE_URL): the bench records the events through its own connection,
// which the embedded database (one process's own) does not allow.
import { type ChildProcess, spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import autocannon from "autocannon";
import { count, eq } from "drizzle-orm";
import { openPostgres } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { webhookDeliveries } from "@/db/schema";
import { recordEvent } from "@/lib/services/outbox/outbox";
import { freePort } from "@/tests/support/free-port";
import { freshBenchDatabase } from "./databases";
import { appBuild, type Server, seed, startApp } from "./throughput";

const EVENTS = 1_000;
const ROUNDS = 3;
const CONNECTIONS = 16;
const MIN_RATIO = 0.9;
const TEMPLATE = "/ext/svc/me/templates/t000123";

/** A receiver in a process of its own, answering every delivery 204 at once. */
async function startReceiver(port: number): Promise<ChildProcess> {
  const code = `require("node:http").createServer((req, res) => { req.resume(); req.on("end", () => res.writeHead(204).end()); }).listen(${port}, "127.0.0.1", () => console.log("ready"));`;
  const child = spawn(process.execPath, ["-e", code], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve) => child.stdout!.once("data", () => resolve()));
  return child;
}

/** Reads the template until `until` resolves (or for `seconds`); answers the mean req/s. */
function readTemplate(url: string, token: string, until: Promise<unknown> | number): Promise<number> {
  return new Promise((resolve, reject) => {
    const options = { url, connections: CONNECTIONS, headers: { authorization: `Bearer ${token}` } };
    const tracker = autocannon({ ...options, duration: typeof until === "number" ? until : 3_600 }, (error, result) => {
      if (error) return reject(error);
      if (result.non2xx > 0 || result.errors > 0)
        return reject(new Error(`template reads failed: ${result.non2xx} non-2xx, ${result.errors} errors`));
      resolve(result.requests.average);
    });
    if (typeof until !== "number") void until.then(() => tracker.stop());
  });
}

export async function webhookBench(serverUrl: string, log: (line: string) => void = console.log): Promise<boolean> {
  log(`Webhooks: ${EVENTS} events to a local receiver while GET template runs (autocannon, ${CONNECTIONS} connections), ${ROUNDS} rounds:`);
  const database = await freshBenchDatabase(serverUrl);
  const handle = await openPostgres(database.url, { bounded: false });
  const build = appBuild(log);
  let app: Server | undefined;
  let receiver: ChildProcess | undefined;
  try {
    await runMigrations(handle, database.url);
    const token = await seed(handle.db, 1_000);
    const receiverPort = await freePort();
    receiver = await startReceiver(receiverPort);
    const port = await freePort();
    app = await startApp(build.dir, port, database.url, 1, undefined, { WEBHOOK_ALLOWED_HOSTS: "127.0.0.1" });
    const base = `http://127.0.0.1:${port}`;
    const added = await fetch(`${base}/ext/svc/me/webhooks`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ url: `http://127.0.0.1:${receiverPort}/hook`, events: ["template.updated"] }),
    });
    if (added.status !== 201) throw new Error(`adding the webhook: ${added.status} ${await added.text()}`);
    const webhookId = ((await added.json()) as { id: string }).id;
    await readTemplate(`${base}${TEMPLATE}`, token, 3); // warm-up

    const delivered = async () =>
      (await handle.db.select({ n: count() }).from(webhookDeliveries).where(eq(webhookDeliveries.status, "succeeded")))[0]!.n;
    /**
     * Records `EVENTS` events in one transaction, as one change's would be (the server starts on them
     * when it commits); answers `done`, the wait for the server to have delivered them all, resolving
     * to its seconds (in an object: an async function's promise would be waited for with it).
     */
    const record = async (round: number) => {
      const before = await delivered();
      await handle.db.transaction(async (tx) => {
        for (let i = 0; i < EVENTS; i++) {
          await recordEvent(tx, { type: "template.updated", data: { round, i }, audience: { kind: "owner", userId: "heavy" } });
        }
      });
      const start = performance.now();
      const done = (async () => {
        while ((await delivered()) < before + EVENTS) await new Promise((resolve) => setTimeout(resolve, 50));
        return (performance.now() - start) / 1000;
      })();
      return { done };
    };
    const alone = await (await record(-1)).done;
    log(`  alone: ${EVENTS} events in ${alone.toFixed(1)} s (${(EVENTS / alone).toFixed(0)}/s), nothing else running`);
    const withDeliveries: number[] = [];
    const without: number[] = [];
    const eventRates: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const { done } = await record(round);
      const rate = await readTemplate(`${base}${TEMPLATE}`, token, done);
      const seconds = await done;
      withDeliveries.push(rate);
      eventRates.push(EVENTS / seconds);
      without.push(await readTemplate(`${base}${TEMPLATE}`, token, Math.max(2, Math.round(seconds))));
      log(
        `  round ${round + 1}/${ROUNDS}: ${EVENTS} events in ${seconds.toFixed(1)} s (${(EVENTS / seconds).toFixed(0)}/s); GET template ${rate.toFixed(0)} req/s while delivering, ${without.at(-1)!.toFixed(0)} without`,
      );
    }
    // Medians: on a shared machine one round disturbed by something else should not decide the verdict.
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
    const ratio = median(withDeliveries) / median(without);
    const ok = ratio >= MIN_RATIO;
    log(`  events per second while GET template runs: ${median(eventRates).toFixed(0)} (webhook ${webhookId})`);
    log(
      `  GET template while delivering / without: ${median(withDeliveries).toFixed(0)} / ${median(without).toFixed(0)} req/s = ${ratio.toFixed(2)}  ${ok ? "ok" : `BELOW ${MIN_RATIO}`}`,
    );
    return ok;
  } finally {
    await app?.stop();
    receiver?.kill();
    await handle.close();
    await database.drop();
    build.cleanup();
  }
}
