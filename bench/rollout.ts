// The rollout case of `npm run bench` (CONTRACT §16): 20 banks and then 200 banks made from one
// template each, a new version of the template, then one rollout to the banks behind it (as
// POST /ext/svc/banks/rollout runs it: selection, then each bank's import, history and audit),
// on the embedded store (PGlite and, with BENCH_DATABASE_URL, PostgreSQL). The time per bank must
// stay flat: at 200 banks within 1.5x of at 20. The merged case (CONTRACT §21, issue 36) does the same
// with every bank edited in place first (a directive's priority, which the new version leaves alone)
// and a rollout with merge, which keeps that edit and takes the version's new texts.
import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import type { DatabaseHandle } from "@/db/client";
import { users } from "@/db/schema";
import { CreateTemplateRequest, PatchTemplateRequest } from "@/lib/contracts/templates/schemas";
import { loadConfig } from "@/lib/platform/config";
import { createBankFromTemplate, editDirective, getBank } from "@/lib/services/banks/banks";
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
/** The directive each bank of the merged case edits in place, and the priority it gives it (the template's is 0). */
const EDITED = { name: "Directive 0000", priority: 9 };

/** Whether the banks are edited in place first and the rollout merges (keeping those edits). */
type Kind = "plain" | "merged";

/** A bank's own edit: the template's directive with another priority. */
async function editInPlace(ctx: ReturnType<typeof serviceContext>, bankId: string) {
  const { name: _name, ...directive } = largeManifest(ENTRIES, ENTRIES).directives[0]!;
  await editDirective(ctx, { bankId, key: EDITED.name, body: { ...directive, priority: EDITED.priority } });
}

/** The merge kept the bank's priority and took the new version's text, or the bench measured something else. */
async function assertMerged(ctx: ReturnType<typeof serviceContext>, bankId: string) {
  const bank = await getBank(ctx, { bankId });
  const directive = bank.directives.find((entry) => entry.name === EDITED.name);
  if (directive?.priority !== EDITED.priority || !String(directive.content).endsWith(" (v2)")) {
    throw new Error(`the merged rollout left ${bankId}'s ${EDITED.name} as ${JSON.stringify(directive)}`);
  }
}

async function msPerBank(app: AppContext, banks: number, kind: Kind): Promise<number> {
  const ctx = serviceContext(app, OWNER);
  const scope = { kind: "personal", owner: OWNER.userId } as const;
  const id = `rollout-${kind}-${banks}`;
  const bankIds = Array.from({ length: banks }, (_, i) => `${id}-bank-${String(i).padStart(3, "0")}`);
  const body = CreateTemplateRequest.parse({ id, name: id, manifest: largeManifest(ENTRIES, ENTRIES) });
  await createTemplate(ctx, { scope, body });
  for (const bankId of bankIds) {
    await createBankFromTemplate(ctx, { body: { bank_id: bankId, template: `personal/${id}` }, dryRun: false });
    if (kind === "merged") await editInPlace(ctx, bankId);
  }
  const patch = PatchTemplateRequest.parse({ manifest: largeManifest(ENTRIES, ENTRIES, " (v2)") });
  await patchTemplate(ctx, { scope, templateId: id, body: patch });

  const start = performance.now();
  const { results } = await rolloutTemplate(ctx, {
    body: { template: `personal/${id}`, ...(kind === "merged" ? { merge: true } : {}) },
    dryRun: false,
  });
  const ms = performance.now() - start;
  const applied = results.filter((result) => result.applied).length;
  if (applied !== banks)
    throw new Error(`the rollout applied ${applied} of ${banks} banks: ${JSON.stringify(results.find((r) => r.problem))}`);
  if (kind === "merged") await assertMerged(ctx, bankIds.at(-1)!);
  const perBank = ms / banks;
  console.log(
    `  ${kind === "merged" ? "merged rollout to" : "rollout to"} ${String(banks).padStart(3)} banks behind`.padEnd(60),
    `${ms.toFixed(0).padStart(6)} ms  ${perBank.toFixed(1).padStart(6)} ms per bank`,
  );
  return perBank;
}

const rolloutCase = (kind: Kind) =>
  async function rollouts(name: string, handle: DatabaseHandle): Promise<boolean> {
    const what = kind === "merged" ? "merged rollouts (each bank edited in place)" : "rollouts";
    console.log(`${name}: ${what} of a new version (${ENTRIES} mental models and ${ENTRIES} directives) to ${SIZES.join(" and ")} banks…`);
    const app: AppContext = {
      config: loadConfig({ DATA_DIR: "/nonexistent" }),
      db: handle.db,
      database: handle,
      secretKey: randomBytes(32),
    };
    await handle.db.insert(users).values({ id: OWNER.userId, displayName: OWNER.displayName });
    const [small, large] = [await msPerBank(app, SIZES[0], kind), await msPerBank(app, SIZES[1], kind)];
    const ratio = large / small;
    const flat = ratio <= MAX_RATIO;
    console.log(`  per-bank time at ${SIZES[1]} / at ${SIZES[0]}: ${ratio.toFixed(2)}x  ${flat ? "ok" : "NOT FLAT"}`);
    return flat;
  };

/**
 * Runs the case (`plain`, or `merged`: banks edited in place, a rollout with merge) on PGlite and, given a
 * server URL, on PostgreSQL; true when the time per bank stayed flat on each.
 */
export async function rolloutBench(serverUrl: string | undefined, kind: Kind = "plain"): Promise<boolean> {
  const ok = await onEachDatabase(serverUrl, rolloutCase(kind));
  const what = kind === "merged" ? "Merged rollout" : "Rollout";
  console.log(ok ? `${what} time per bank flat (within ${MAX_RATIO}x).` : `${what} time per bank grew past ${MAX_RATIO}x.`);
  return ok;
}
