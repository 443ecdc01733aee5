import type { z } from "zod";
import type { Database } from "@/db/client";
import type { BankSummary, ImportResult } from "@/lib/contracts/banks/schemas";
import { forbidden } from "@/lib/contracts/errors";
import { recordAudit } from "@/lib/services/audit/record";
import type { Principal } from "@/lib/services/identity/principal";
import type { BankStore, ImportOutcome, ImportRequest, StoredBankDetail } from "./bank-store";
import { EMPTY_BANK, importChanges } from "./changes";
import { hindsightShape } from "./hindsight-entries";
import { deleteImportHistory, recordImport } from "./history";
import { planImport } from "./import-plan";
import { type HindsightClient, type HindsightConfig, hindsightClient } from "./remote";

/*
 * The remote store (CONTRACT §8, §3): banks live in a Hindsight server, which records no owners, so no
 * bank is provably a member's own. Admins see every Hindsight bank; members see none (an empty list, 404
 * for any id), and Hindsight is not even asked on their behalf. Any principal may create a bank there;
 * applying a template to one that exists is for admins. The history of imports stays in our database.
 */
export function remoteBankStore(db: Database, config: HindsightConfig): BankStore {
  const client = hindsightClient(config);
  return {
    importTemplate: (principal, request) => importIntoHindsight(db, client, principal, request),
    list: (principal) => listHindsightBanks(client, principal),
    read: (principal, bankId) => readHindsightBank(client, principal, bankId),
    isVisible: async (principal, bankId) => principal.role === "admin" && (await client.bankExists(bankId)),
    remove: async (principal, bankId) => {
      if (principal.role !== "admin" || !(await client.deleteBank(bankId))) return false;
      // Hindsight deleted it (no local transaction can hold a remote write): its history and the audit entry go together.
      await db.transaction(async (tx) => {
        await deleteImportHistory(tx, bankId);
        await recordAudit(tx);
      });
      return true;
    },
  };
}

/**
 * Reads the bank's current config, mental models and directives, then lets Hindsight import the manifest,
 * with the changes computed from that read as Hindsight holds entries (its defaults filled in), so
 * re-applying the template a bank holds lists none (as far as Hindsight tells: another writer between
 * our read and its import goes unseen).
 *
 * A dry run is still sent, so Hindsight's validation answers (a 422 is a 502 as for a real import), but
 * its lists are validation-only (every entry "created", config "applied" whenever a bank section is
 * there): the answer is the plan's lists, which are what the real import reports (CONTRACT §15).
 *
 * A given name goes to Hindsight after the import (PATCH /v1/default/banks/{bank_id}), never on a dry
 * run: a failed import then leaves no bank renamed, or created empty by the rename, behind. The import is
 * recorded once both were accepted; when the rename fails the answer is 502 with nothing recorded, and
 * sending the same request again finishes it (the template then changes nothing, the name is set).
 */
async function importIntoHindsight(
  db: Database,
  client: HindsightClient,
  principal: Principal,
  request: ImportRequest,
): Promise<ImportOutcome> {
  const { bankId, dryRun } = request;
  const current = await client.getBank(bankId);
  if (current && principal.role !== "admin") {
    throw forbidden(`Bank ${bankId} already exists in Hindsight, which records no owners; only an admin may apply templates to it.`);
  }
  const before = current ?? EMPTY_BANK;
  const plan = planImport(request.template.manifest, {
    mentalModelIds: new Set(before.mentalModels.map((m) => String(m.id))),
    directiveNames: new Set(before.directives.map((d) => String(d.name))),
  });
  const changes = importChanges(plan, before, hindsightShape);
  const answer = await client.importManifest(bankId, request.template.manifest, dryRun);
  if (dryRun) {
    const result: ImportResult = { bank_id: bankId, ...plan.result, operation_ids: [], dry_run: true };
    return { bankCreated: false, result, changes };
  }
  if (request.name !== undefined && request.name !== current?.name) await client.renameBank(bankId, request.name);
  // After Hindsight accepted the import: its history entry and the audit entry commit together.
  await db.transaction(async (tx) => {
    await recordImport(tx, {
      bankId,
      template: request.template.ref,
      sourceRevision: request.template.revision,
      actor: principal.id,
      result: answer,
      at: new Date(),
    });
    await recordAudit(tx);
  });
  return { bankCreated: !current, result: answer, changes };
}

async function listHindsightBanks(client: HindsightClient, principal: Principal): Promise<z.input<typeof BankSummary>[]> {
  if (principal.role !== "admin") return [];
  const items = await client.listBanks();
  return items.map(presentHindsightSummary).sort((a, b) => (a.bank_id < b.bank_id ? -1 : a.bank_id > b.bank_id ? 1 : 0));
}

async function readHindsightBank(client: HindsightClient, principal: Principal, bankId: string): Promise<StoredBankDetail | null> {
  if (principal.role !== "admin") return null;
  const bank = await client.getBank(bankId);
  if (!bank) return null;
  return {
    ...presentHindsightSummary({ bank_id: bankId, ...bank }),
    config: bank.config,
    mental_models: bank.mentalModels,
    directives: bank.directives,
  };
}

interface HindsightSummary {
  bank_id: string;
  name?: string | null;
  created_at?: string | null;
  updated_at?: string | null;
}

function presentHindsightSummary(bank: HindsightSummary): z.input<typeof BankSummary> {
  return {
    bank_id: bank.bank_id,
    name: bank.name ?? bank.bank_id,
    owner: null,
    created_at: hindsightTime(bank.created_at),
    updated_at: hindsightTime(bank.updated_at),
    last_applied: null,
  };
}

/**
 * Hindsight's timestamps (Python isoformat: microseconds, an offset, or no zone meaning UTC) as ISO ms Z.
 * The reference types them as plain nullable strings, so null when absent or not a readable date-time.
 */
function hindsightTime(text: string | null | undefined): string | null {
  if (!text) return null;
  const zoned = /(?:Z|[+-]\d{2}(?::?\d{2})?)$/i.test(text) || !/\d{2}:\d{2}/.test(text) ? text : `${text}Z`;
  const ms = Date.parse(zoned);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}
