import type { TemplateContent } from "@/lib/contracts/templates/content-fields";
import { plural } from "@/lib/shared/plural";

/**
 * What a template holds, at a glance, derived from its content alone: what a reader wants to
 * know before installing it or making a bank from it (the template page and the Marketplace
 * preview show the same).
 */
export interface TemplateSummary {
  /** The mental models' names (their ids where a name is missing); null when the manifest leaves a bank's mental models alone. */
  mentalModels: string[] | null;
  /** The directives' names; null when the manifest leaves a bank's directives alone. */
  directives: string[] | null;
  /** Of those, how many are off (`is_active: false`): imported, but not in effect. */
  inactiveDirectives: number;
  /** The bank config fields the manifest sets, in its order; a null value sets nothing (as an import reads it). */
  bankSettings: string[];
  category: string | null;
  integrations: string[];
  tags: string[];
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** A manifest list's entries by a readable label: `label`, else `fallback`; null when the list is absent or not a list. */
function entryLabels(list: unknown, label: string, fallback: string): string[] | null {
  if (!Array.isArray(list)) return null;
  return list.map((entry, i) => {
    const value = isRecord(entry) ? (entry[label] ?? entry[fallback]) : undefined;
    return typeof value === "string" && value.trim() !== "" ? value : `#${i + 1}`;
  });
}

/**
 * The summary of a template's content (or of a catalog entry's, whose manifest may be missing:
 * then it holds nothing known).
 */
export function summarizeTemplate(
  content: Pick<TemplateContent, "category" | "integrations" | "tags"> & { manifest: Record<string, unknown> | null },
): TemplateSummary {
  const manifest = content.manifest ?? {};
  const bank = isRecord(manifest.bank) ? manifest.bank : {};
  const directives = Array.isArray(manifest.directives) ? manifest.directives : [];
  return {
    mentalModels: entryLabels(manifest.mental_models, "name", "id"),
    directives: entryLabels(manifest.directives, "name", "name"),
    inactiveDirectives: directives.filter((d) => isRecord(d) && d.is_active === false).length,
    bankSettings: Object.keys(bank).filter((key) => bank[key] !== null && bank[key] !== undefined),
    category: content.category,
    integrations: content.integrations,
    tags: content.tags,
  };
}

/**
 * The summary in one line: "3 mental models, 2 directives, 4 bank settings"; a part the
 * manifest leaves alone is left out, and a manifest that sets nothing says so.
 */
export function describeSummary(summary: TemplateSummary): string {
  const parts = [
    summary.mentalModels && plural(summary.mentalModels.length, "mental model"),
    summary.directives &&
      `${plural(summary.directives.length, "directive")}${summary.inactiveDirectives ? ` (${summary.inactiveDirectives} off)` : ""}`,
    summary.bankSettings.length > 0 && plural(summary.bankSettings.length, "bank setting"),
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(", ") : "Sets nothing in a bank";
}
