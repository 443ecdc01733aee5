// The rollout case of `npm run bench` (CONTRACT §16): 20 banks and then 200 banks made from one
// template each, a new version of the template, then one rollout to the banks behind it (as
// POST /ext/svc/banks/rollout runs it: selection, then each bank's import, history and audit),
// on the embedded store (PGlite and, with BENCH_DATABASE_URL, PostgreSQL). The time per bank must
// stay flat: at 200 banks within 1.5x of at 20.
import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import type { DatabaseHandle } from "@/db/client";
import { users } from "@/db/schema";
import { CreateTemplateRequest, PatchTemplateRequest } from "@/lib/contracts/templates/schemas";
import { loadConfig } from "@/lib/platform/config";
import { createBankFromTemplate } from "@/lib/services/banks/banks";
import { rolloutTemplate } from "@/lib/services/banks/rollout";
import type { AppContext, AuthenticatedActor } from "@/lib/services/context";
import { createTemplate, patchTemplate } from "@/lib/services/templates/templates";
import { largeManifest } from "@/tests/support/fixtures";
import { serviceContext } from "@/tests/support/service-context";
import { onEachDatabase } from "./databases";

const MAX_RATIO = 1.5;
const SIZES = [20, 200] as const;
const OWNER: AuthenticatedActor = { type: "user", id: "bench", userId: "bench", role: "member", displayName: "Bench" };
/** A template of a realistic size: a few dozen entries, each rollout changing every one. */
const ENTRIES = 20;

async function msPerBank(app: AppContext, banks: number): Promise<number> {
  const ctx = serviceContext(app, OWNER);
  const scope = { kind: "personal", owner: OWNER.userId } as const;
  const id = `rollout-${banks}`;
  const body = CreateTemplateRequest.parse({ id, name: id, manifest: largeManifest(ENTRIES, ENTRIES) });
  await createTemplate(ctx, { scope, body });
  for (let i = 0; i < banks; i++) {
    const bankId = `${id}-bank-${String(i).padStart(3, "0")}`;
    await createBankFromTemplate(ctx, { body: { bank_id: bankId, template: `personal/${id}` }, dryRun: false });
  }
  const patch = PatchTemplateRequest.parse({ manifest: largeManifest(ENTRIES, ENTRIES, " (v2)") });
  await patchTemplate(ctx, { scope, templateId: id, body: patch });

  const start = performance.now();
  const { results } = await rolloutTemplate(ctx, { body: { template: `personal/${id}` }, dryRun: false });
  const ms = performance.now() - start;
  const applied = results.filter((result) => result.applied).length;
  if (applied !== banks) throw new Error(`the rollout applied ${applied} of ${banks} banks`);
  const perBank = ms / banks;
  console.log(
    `  rollout to ${String(banks).padStart(3)} banks behind`.padEnd(60),
    `${ms.toFixed(0).padStart(6)} ms  ${perBank.toFixed(1).padStart(6)} ms per bank`,
  );
  return perBank;
}

async function rolloutCase(name: string, handle: DatabaseHandle): Promise<boolean> {
  console.log(`${name}: rollouts of a new version (${ENTRIES} mental models and ${ENTRIES} directives) to ${SIZES.join(" and ")} banks…`);
  const app: AppContext = { config: loadConfig({ DATA_DIR: "/nonexistent" }), db: handle.db, database: handle, secretKey: randomBytes(32) };
  await handle.db.insert(users).values({ id: OWNER.userId, displayName: OWNER.displayName });
  const [small, large] = [await msPerBank(app, SIZES[0]), await msPerBank(app, SIZES[1])];
  const ratio = large / small;
  const flat = ratio <= MAX_RATIO;
  console.log(`  per-bank time at ${SIZES[1]} / at ${SIZES[0]}: ${ratio.toFixed(2)}x  ${flat ? "ok" : "NOT FLAT"}`);
  return flat;
}

/** Runs the case on PGlite and, given a server URL, on PostgreSQL; true when the time per bank stayed flat on each. */
export async function rolloutBench(serverUrl: string | undefined): Promise<boolean> {
  const ok = await onEachDatabase(serverUrl, rolloutCase);
  console.log(ok ? `Rollout time per bank flat (within ${MAX_RATIO}x).` : `Rollout time per bank grew past ${MAX_RATIO}x.`);
  return ok;
}
