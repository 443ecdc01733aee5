import type { MergeConflict } from "@/lib/contracts/problem-schema";
import { formatPath } from "@/lib/contracts/validation";
import { sameJson } from "@/lib/shared/same-json";

/**
 * The three-way merge of an update that keeps local edits (CONTRACT §16). Pure: the service
 * merges with it before writing, and the console with the same code shows what the resolutions
 * a person chose for each conflict (CONTRACT §21) would write, so both always agree on what
 * "merged" means.
 *
 * It works per JSON path. Objects merge key by key; the manifest's `mental_models` are matched
 * by `id` and its `directives` by `name` (an entry is then an object, merged field by field);
 * any other array, and every scalar, is one whole value. A path changed on one side only takes
 * that side; changed on both sides to the same value takes it; changed on both sides to
 * different values is a conflict. A missing key is not the same as a key holding null: deleting
 * a key is a change, and setting it to null is another.
 */

/**
 * A path changed on both sides to different values (its schema: MergeConflictSchema). A side on
 * which the path does not exist (a key or an entry deleted there, or never added there) holds
 * null and is listed in `missing`, which tells such a side from one holding null. `path` is in
 * CONTRACT §4's notation; an entry of mental_models or directives is at its index in local's
 * manifest, else in upstream's.
 */
export type { MergeConflict };

type MergeSide = MergeConflict["missing"][number];

/**
 * How one conflict is resolved (CONTRACT §21): local's side, upstream's (either may be a side
 * without the path, which deletes it there), or a value of its own.
 */
type MergeResolution = { take: "local" | "upstream" } | { take: "value"; value: unknown };

/** The resolutions of a merge, by conflict path (CONTRACT §4's notation, as MergeConflict.path). */
export type MergeResolutions = Readonly<Record<string, MergeResolution>>;

/** One resolution as a request lists it (its schema: MergeResolutionSchema). */
export interface MergeResolutionEntry {
  path: string;
  take: MergeResolution["take"];
  value?: unknown;
}

/** A request's list of resolutions by path, as mergeTemplate takes them. */
export function resolutionsByPath(entries: readonly MergeResolutionEntry[]): MergeResolutions {
  return Object.fromEntries(
    entries.map(({ path, take, value }) => [path, take === "value" ? { take, value } : { take }] as const),
  ) as MergeResolutions;
}

/** Resolutions by path as a request lists them. */
export const resolutionList = (resolutions: MergeResolutions): MergeResolutionEntry[] =>
  Object.entries(resolutions).map(([path, resolution]) => ({ path, ...resolution }));

export interface MergeResult<T> {
  /** The merge; at a conflicting path it holds local's value (or what its resolution took). */
  merged: T;
  /** The conflicts no resolution resolved, in the order of the merged content. */
  conflicts: MergeConflict[];
  /** The paths of the conflicts a resolution resolved; a resolution of any other path was not used. */
  resolved: string[];
}

/** The manifest's lists whose entries are matched by a key (as an import matches them); every other array is a whole value. */
export const KEYED_MANIFEST_LISTS = { mental_models: "id", directives: "name" } as const;

/** The arrays whose entries are matched by a key, by their path. */
const KEYED_ARRAYS: ReadonlyArray<{ path: readonly string[]; key: string }> = Object.entries(KEYED_MANIFEST_LISTS).map(([list, key]) => ({
  path: ["manifest", list],
  key,
}));

/** A path's value on a side where the path does not exist (never null, which is a value). */
const MISSING: unique symbol = Symbol("missing");

type Path = readonly (string | number)[];

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Local's keys (or entries) in local's order, then upstream's others in upstream's order. */
function unionInOrder(local: readonly string[], upstream: readonly string[]): string[] {
  const seen = new Set(local);
  return [...local, ...upstream.filter((key) => !seen.has(key))];
}

const at = (value: unknown, key: string): unknown => (isObject(value) && Object.hasOwn(value, key) ? value[key] : MISSING);

class Merger {
  readonly conflicts: MergeConflict[] = [];
  readonly resolved: string[] = [];
  constructor(private readonly resolutions: MergeResolutions) {}

  /** The merge of one path; MISSING when the path is deleted (or absent) in the result. */
  value(path: Path, shownPath: Path, base: unknown, local: unknown, upstream: unknown): unknown {
    if (sameJson(local, upstream)) return local;
    if (sameJson(base, local)) return upstream;
    if (sameJson(base, upstream)) return local;
    const keyed = KEYED_ARRAYS.find((k) => k.path.length === path.length && k.path.every((part, i) => part === path[i]));
    if (keyed && Array.isArray(local) && Array.isArray(upstream) && (Array.isArray(base) || base === MISSING)) {
      const merged = this.entries(keyed.key, path, shownPath, base === MISSING ? [] : (base as unknown[]), local, upstream);
      if (merged) return merged;
    }
    if (isObject(local) && isObject(upstream) && (isObject(base) || base === MISSING)) {
      return this.object(path, shownPath, base === MISSING ? {} : base, local, upstream);
    }
    return this.conflict(shownPath, base, local, upstream);
  }

  private object(
    path: Path,
    shownPath: Path,
    base: Record<string, unknown>,
    local: Record<string, unknown>,
    upstream: Record<string, unknown>,
  ) {
    const out: Record<string, unknown> = {};
    for (const key of unionInOrder(Object.keys(local), Object.keys(upstream))) {
      const merged = this.value([...path, key], [...shownPath, key], at(base, key), at(local, key), at(upstream, key));
      if (merged !== MISSING) out[key] = merged;
    }
    return out;
  }

  /**
   * Entries matched by `key`; null when some entry has no string key (then the array is one
   * whole value; a valid manifest never has such an entry).
   */
  private entries(key: string, path: Path, shownPath: Path, base: unknown[], local: unknown[], upstream: unknown[]): unknown[] | null {
    const index = (list: unknown[]) => {
      const byKey = new Map<string, { entry: unknown; at: number }>();
      for (const [i, entry] of list.entries()) {
        const id = isObject(entry) ? entry[key] : undefined;
        if (typeof id !== "string" || byKey.has(id)) return null;
        byKey.set(id, { entry, at: i });
      }
      return byKey;
    };
    const [b, l, u] = [index(base), index(local), index(upstream)];
    if (!b || !l || !u) return null;
    const out: unknown[] = [];
    for (const id of unionInOrder([...l.keys()], [...u.keys()])) {
      const shownAt = (l.get(id) ?? u.get(id))!.at;
      const merged = this.value(
        [...path, id],
        [...shownPath, shownAt],
        b.get(id)?.entry ?? MISSING,
        l.get(id)?.entry ?? MISSING,
        u.get(id)?.entry ?? MISSING,
      );
      if (merged !== MISSING) out.push(merged);
    }
    return out;
  }

  private conflict(shownPath: Path, base: unknown, local: unknown, upstream: unknown): unknown {
    const path = formatPath(shownPath);
    const resolution = Object.hasOwn(this.resolutions, path) ? this.resolutions[path] : undefined;
    if (resolution) {
      this.resolved.push(path);
      if (resolution.take === "value") return resolution.value;
      return resolution.take === "local" ? local : upstream;
    }
    const sides = { base, local, upstream };
    this.conflicts.push({
      path,
      base: base === MISSING ? null : base,
      local: local === MISSING ? null : local,
      upstream: upstream === MISSING ? null : upstream,
      missing: (Object.keys(sides) as MergeSide[]).filter((side) => sides[side] === MISSING),
    });
    return local;
  }
}

/**
 * Merges local's and upstream's changes since base. `resolutions` resolve conflicts by path (a
 * side taken may be one without the path, which deletes it); a conflict without one takes
 * local's value in `merged` and is listed in `conflicts`. Deterministic: keys and entries in
 * local's order, then upstream's new ones in upstream's order; the sides are not changed.
 */
export function mergeTemplate<T extends object>(base: T, local: T, upstream: T, resolutions: MergeResolutions = {}): MergeResult<T> {
  const merger = new Merger(resolutions);
  const merged = merger.value([], [], base, local, upstream);
  return { merged: (merged === MISSING ? {} : merged) as T, conflicts: merger.conflicts, resolved: merger.resolved };
}

/** Whether two contents are the same (an object's key order aside): a merge equal to upstream leaves no local edits. */
export const sameContent = (a: object, b: object) => sameJson(a, b);
