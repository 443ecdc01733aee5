import type { ImportResult } from "@/lib/contracts/banks/schemas";
import { type BankTemplateManifest, manifestSections } from "@/lib/contracts/templates/manifest";

type Entry = Record<string, unknown>;

/** What an import of `manifest` does to a bank whose mental models and directives are known. */
export interface ImportPlan {
  /** Config fields the manifest sets (a null value sets nothing); empty when it has no `bank` section. */
  config: Entry;
  mentalModels: Array<Entry & { id: string }>;
  directives: Array<Entry & { name: string }>;
  result: Omit<ImportResult, "bank_id" | "dry_run" | "operation_ids">;
}

/**
 * Hindsight's import semantics (CONTRACT §8, §15): config applied when the `bank` section sets a
 * field, a field whose value is null setting nothing (Hindsight ignores it, so a `bank` section of
 * nulls alone applies no config); mental models matched by id and directives by name, created or
 * updated; sections the manifest omits are left alone. Pure, so dry runs and real imports answer alike.
 */
export function planImport(
  manifest: BankTemplateManifest,
  existing: { mentalModelIds: Set<string>; directiveNames: Set<string> },
): ImportPlan {
  const sections = manifestSections(manifest);
  const config = Object.fromEntries(Object.entries(sections.bank ?? {}).filter(([, value]) => value !== null));
  const mentalModels = (sections.mentalModels ?? []) as ImportPlan["mentalModels"];
  const directives = (sections.directives ?? []) as ImportPlan["directives"];
  const split = <T>(items: T[], key: (item: T) => string, known: Set<string>) => ({
    created: items.map(key).filter((k) => !known.has(k)),
    updated: items.map(key).filter((k) => known.has(k)),
  });
  const models = split(mentalModels, (m) => m.id, existing.mentalModelIds);
  const dirs = split(directives, (d) => d.name, existing.directiveNames);
  return {
    config,
    mentalModels,
    directives,
    result: {
      config_applied: Object.keys(config).length > 0,
      mental_models_created: models.created,
      mental_models_updated: models.updated,
      directives_created: dirs.created,
      directives_updated: dirs.updated,
    },
  };
}
