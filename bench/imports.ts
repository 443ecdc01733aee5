// The large-import case of `npm run bench` (CONTRACT §15): one import of a manifest at its limits
// (1,000 mental models and 1,000 directives of realistic size) into a new bank of the embedded
// store, then a re-import into that bank, each timed once as POST /ext/svc/banks runs it (template
// lookup, plan, changes, writes, history), on PGlite and, with BENCH_DATABASE_URL, on PostgreSQL.
import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import type { DatabaseHandle } from "@/db/client";
import { users } from "@/db/schema";
import { MANIFEST_LIMITS } from "@/lib/contracts/templates/manifest";
import { CreateTemplateRequest } from "@/lib/contracts/templates/schemas";
import { loadConfig } from "@/lib/platform/config";
import { createBankFromTemplate } from "@/lib/services/banks/banks";
import type { AppContext, AuthenticatedActor } from "@/lib/services/context";
import { createTemplate } from "@/lib/services/templates/templates";
import { largeManifest } from "@/tests/support/fixtures";
import { serviceContext } from "@/tests/support/service-context";
import { onEachDatabase } from "./databases";

const TARGET_MS = 5_000;
const OWNER: AuthenticatedActor = { type: "user", id: "bench", userId: "bench", role: "member", displayName: "Bench" };

async function timeOnce(label: string, run: () => Promise<unknown>): Promise<boolean> {
  const start = performance.now();
  await run();
  const ms = performance.now() - start;
  console.log(`  ${label.padEnd(58)} ${ms.toFixed(0).padStart(6)} ms  ${ms <= TARGET_MS ? "ok" : "SLOW"}`);
  return ms <= TARGET_MS;
}

async function importCase(name: string, handle: DatabaseHandle): Promise<boolean> {
  const { mentalModels, directives } = MANIFEST_LIMITS;
  console.log(`${name}: importing ${mentalModels} mental models and ${directives} directives…`);
  const app: AppContext = {
    config: loadConfig({ DATA_DIR: "/nonexistent" }),
    db: handle.db,
    database: handle,
    secretKey: randomBytes(32),
  };
  await handle.db.insert(users).values({ id: OWNER.userId, displayName: OWNER.displayName });
  const template = CreateTemplateRequest.parse({ id: "large", name: "Large", manifest: largeManifest(mentalModels, directives) });
  const ctx = serviceContext(app, OWNER);
  await createTemplate(ctx, { scope: { kind: "personal", owner: OWNER.userId }, body: template });
  const apply = () => createBankFromTemplate(ctx, { body: { bank_id: "large", template: "personal/large" }, dryRun: false });
  const created = await timeOnce("import into a new bank", apply);
  const reimported = await timeOnce("re-import into the same bank", apply);
  return created && reimported;
}

/** Runs the case on PGlite and, given a server URL, on PostgreSQL; true when every import met the target. */
export async function importBench(serverUrl: string | undefined): Promise<boolean> {
  const ok = await onEachDatabase(serverUrl, importCase);
  console.log(ok ? `Every large import within ${TARGET_MS} ms.` : `Some large imports exceeded ${TARGET_MS} ms.`);
  return ok;
}
