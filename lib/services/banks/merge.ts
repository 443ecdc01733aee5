import "server-only";
import { conflict, DomainError } from "@/lib/contracts/errors";
import { type BankTemplateManifest, checkManifest, MANIFEST_VERSION } from "@/lib/contracts/templates/manifest";
import { type MergeResolutionEntry, mergeTemplate, resolutionsByPath } from "@/lib/contracts/templates/merge";
import { sameJson } from "@/lib/shared/same-json";
import { type BankContents, importedContents, type StoredShape } from "./changes";
import { planImport } from "./import-plan";

/*
 * An apply that keeps the bank's local edits (CONTRACT §21 `merge`), the part both stores share, with the
 * templates' own three-way merge (lib/contracts/templates/merge.ts: per path, mental models by `id`,
 * directives by `name`). Base: what the bank's last apply wrote (its history keeps it); local: the bank
 * now; upstream: what applying the template now would write over that base (entries the template does
 * not name are the base's, so they are no change of upstream's). The merge becomes the manifest that,
 * imported into the bank as it is, leaves it merged: the store then imports it as any other, so its
 * `import_result`, `changes`, dry run and history are exactly what the merge writes.
 */

type Entry = Record<string, unknown>;

/** A bank's content as one manifest to merge, entries in the store's shape (so defaults do not read as edits). */
const mergeable = (content: BankContents, shape: StoredShape) => ({
  manifest: {
    bank: content.config ?? {},
    mental_models: content.mentalModels.map(shape.mentalModel),
    directives: content.directives.map(shape.directive),
  },
});

/** The entries of `merged` that the bank (`local`) does not hold as they are; a local one the merge dropped is refused. */
function entriesToWrite(bankId: string, merged: Entry[], local: Entry[], key: "id" | "name"): Entry[] {
  const held = new Map(local.map((entry) => [String(entry[key]), entry]));
  const kept = new Set(merged.map((entry) => String(entry[key])));
  const dropped = [...held.keys()].filter((name) => !kept.has(name));
  if (dropped.length) {
    throw conflict(
      `The resolutions would remove ${dropped.join(", ")} from bank ${bankId}, which an apply cannot do; remove it with its own DELETE. Nothing was written.`,
      undefined,
      "merge-invalid",
    );
  }
  return merged.filter((entry) => !sameJson(entry, held.get(String(entry[key]))));
}

export interface BankMerge {
  /** The manifest that, imported into the bank as it is, writes the merge. */
  manifest: BankTemplateManifest;
  /** What the template alone would have written over the base: the next merge's base, and what `locally_modified` compares with. */
  upstream: BankContents;
}

/**
 * The merge of `template` into a bank holding `local`, from `applied` (what its last apply wrote; null:
 * unknown, 409 `merge-base-missing`: its edits cannot be told from the template's, and an apply without
 * merge replaces them). `resolutions` resolve conflicts by path; one left is 409 `merge-conflict` with the
 * conflicts, a merge whose manifest would be invalid 409 `merge-invalid`. Resolutions of paths that are
 * no conflict of this bank are not used (a rollout sends the same ones to every bank).
 */
export function mergeIntoBank(
  bankId: string,
  sides: { template: BankTemplateManifest; local: BankContents; applied: BankContents | null; shape: StoredShape },
  resolutions: readonly MergeResolutionEntry[] = [],
): BankMerge {
  const { template, local, applied, shape } = sides;
  if (applied === null) {
    throw conflict(
      `Bank ${bankId} has no record of what its last apply wrote (applied before this server kept it, or never applied here), so its own edits cannot be told apart; apply without merge to replace them. Nothing was written.`,
      undefined,
      "merge-base-missing",
    );
  }
  const plan = planImport(template, {
    mentalModelIds: new Set(applied.mentalModels.map((m) => String(m.id))),
    directiveNames: new Set(applied.directives.map((d) => String(d.name))),
  });
  const upstream = importedContents(applied, plan);
  // A config either side could not read (a Hindsight bank whose /config answers 404) is not merged: the template's fields apply as they would.
  const configKnown = local.config !== null && applied.config !== null;
  const { merged, conflicts } = mergeTemplate(
    mergeable(configKnown ? applied : { ...applied, config: {} }, shape),
    mergeable(configKnown ? local : { ...local, config: {} }, shape),
    mergeable(configKnown ? upstream : { ...upstream, config: plan.config }, shape),
    resolutionsByPath(resolutions),
  );
  if (conflicts.length) {
    const n = conflicts.length;
    throw new DomainError(
      "merge-conflict",
      `Bank ${bankId} and template version being applied both changed ${n} path${n > 1 ? "s" : ""} differently (${conflicts.map((c) => c.path).join(", ")}); nothing was written.`,
      { conflicts },
    );
  }
  const localConfig = configKnown ? local.config! : {};
  const config = Object.fromEntries(Object.entries(merged.manifest.bank).filter(([field, value]) => !sameJson(value, localConfig[field])));
  const manifest = {
    version: MANIFEST_VERSION,
    ...(Object.keys(config).length ? { bank: config } : {}),
    mental_models: entriesToWrite(bankId, merged.manifest.mental_models, mergeable(local, shape).manifest.mental_models, "id"),
    directives: entriesToWrite(bankId, merged.manifest.directives, mergeable(local, shape).manifest.directives, "name"),
  };
  const report = checkManifest(manifest);
  if (!report.valid) {
    throw conflict(
      `Merging the template into bank ${bankId} would give an invalid manifest; nothing was written.`,
      report.errors,
      "merge-invalid",
    );
  }
  return { manifest: manifest as BankTemplateManifest, upstream };
}
