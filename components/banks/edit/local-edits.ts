import type { z } from "zod";
import type { BankDetail, BankHistoryEntry } from "@/lib/contracts/banks/schemas";
import { sameJson } from "@/lib/shared/same-json";

type Entry = Record<string, unknown>;
type Lists = "mental_models" | "directives";
const LISTS = [
  ["mental_models", "id"],
  ["directives", "name"],
] as const;

/** A bank's content, or the part of it the edits touched: config overrides and entries by key. */
export interface BankContent {
  config: Record<string, unknown>;
  mental_models: Entry[];
  directives: Entry[];
}

export interface LocalEdits {
  /** What the last apply wrote, for each part edited since and still different: the template's side of the diff. */
  applied: BankContent;
  /** The same parts as the bank has them now. */
  now: BankContent;
  /** The keys that differ, per part: config fields, mental model ids, directive names. */
  changed: { config: Set<string>; mental_models: Set<string>; directives: Set<string> };
}

/**
 * What the bank's edits since its last apply changed, against what that apply wrote (CONTRACT
 * §21). The history holds each edit's before and after, newest first; the `before` of the first
 * edit since the apply that touched a part is that part as the apply left it (nothing else writes
 * a bank's content between). Parts edited back to what the apply wrote drop out. Null when the
 * history has no apply to compare with.
 */
export function localEdits(entries: readonly BankHistoryEntry[], bank: z.output<typeof BankDetail>): LocalEdits | null {
  const lastImport = entries.findIndex((entry) => entry.kind === "import");
  if (lastImport < 0) return null;
  const applied = { config: new Map<string, unknown>(), mental_models: new Map<string, unknown>(), directives: new Map<string, unknown>() };
  for (const entry of entries.slice(0, lastImport).reverse()) {
    if (entry.kind !== "edit") continue;
    for (const part of ["config", "mental_models", "directives"] as const) {
      for (const [key, value] of Object.entries(entry.before[part] ?? {}))
        if (!applied[part].has(key)) applied[part].set(key, value ?? null);
    }
  }
  const nowOf = {
    config: (key: string) => (bank.config as Record<string, unknown>)[key] ?? null,
    ...Object.fromEntries(
      LISTS.map(([list, field]) => [list, (key: string) => (bank[list] as Entry[]).find((e) => e[field] === key) ?? null]),
    ),
  } as Record<"config" | Lists, (key: string) => unknown>;
  const result: LocalEdits = {
    applied: { config: {}, mental_models: [], directives: [] },
    now: { config: {}, mental_models: [], directives: [] },
    changed: { config: new Set(), mental_models: new Set(), directives: new Set() },
  };
  for (const part of ["config", "mental_models", "directives"] as const) {
    for (const key of [...applied[part].keys()].sort()) {
      const was = applied[part].get(key);
      const is = nowOf[part](key);
      if (sameJson(was, is)) continue;
      result.changed[part].add(key);
      if (part === "config") {
        if (was !== null) result.applied.config[key] = was;
        if (is !== null) result.now.config[key] = is;
      } else {
        if (was !== null) result.applied[part].push(was as Entry);
        if (is !== null) result.now[part].push(is as Entry);
      }
    }
  }
  return result;
}
