import { POLICY_VERSION } from "@/lib/client/policy-version";

/**
 * The policy document as the editor holds it: whatever JSON object the user wrote, so keys
 * the form does not know (and values it could not produce) survive until the API judges
 * them. The form reads through the helpers below and writes with `setIn`.
 */
export type PolicyDraft = Record<string, unknown>;
export type Path = (string | number)[];

export const SCOPES = ["provider", "channel", "topic"] as const;
export const RECALL_BUDGETS = ["low", "mid", "high"] as const;

export const newPolicy = (): PolicyDraft => ({ version: POLICY_VERSION });

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export function getIn(value: unknown, path: Path): unknown {
  let here = value;
  for (const key of path) {
    if (typeof key === "number" ? !Array.isArray(here) : !isObject(here)) return undefined;
    here = (here as Record<string | number, unknown>)[key];
  }
  return here;
}

/**
 * A copy of `value` with `path` set; `undefined` removes the key (or the list item). Missing
 * objects on the way are made. A removal that leaves an object or list empty removes that
 * too (`public_access: {}` goes with its last key), except list items and the document.
 */
export function setIn(value: unknown, path: Path, next: unknown): unknown {
  return setAt(value, path, next, true);
}

function setAt(value: unknown, path: Path, next: unknown, keep: boolean): unknown {
  if (path.length === 0) return next;
  const [key, ...rest] = path as [string | number, ...Path];
  if (typeof key === "number") {
    const list = Array.isArray(value) ? [...value] : [];
    const child = setAt(list[key], rest, next, true);
    if (child === undefined) list.splice(key, 1);
    else list[key] = child;
    return list.length === 0 && next === undefined && !keep ? undefined : list;
  }
  const object: Record<string, unknown> = isObject(value) ? { ...value } : {};
  const child = setAt(object[key], rest, next, false);
  if (child === undefined) delete object[key];
  else object[key] = child;
  return Object.keys(object).length === 0 && next === undefined && !keep ? undefined : object;
}

/** The list at `path` (absent or not a list: none). */
export const listAt = (draft: PolicyDraft, path: Path): unknown[] => {
  const value = getIn(draft, path);
  return Array.isArray(value) ? value : [];
};

/** The strategy names a policy document uses: its default strategy and its overrides'. */
const strategiesOf = (document: PolicyDraft | null): unknown[] =>
  document ? [document.default_strategy, ...listAt(document, ["strategy_overrides"]).map((o) => getIn(o, ["strategy"]))] : [];

/**
 * The strategy names known for a bank, which the form offers: the retain strategies its config
 * defines (`retain_strategies` by name, and `retain_default_strategy`) and the names its policy
 * uses already (`policies`: as saved, as edited). The API takes any name, so any may still be typed.
 */
export function knownStrategies(config: Record<string, unknown> | undefined, ...policies: (PolicyDraft | null)[]): string[] {
  const defined = isObject(config?.retain_strategies) ? Object.keys(config.retain_strategies) : [];
  const names = [...defined, config?.retain_default_strategy, ...policies.flatMap(strategiesOf)];
  return [...new Set(names.filter((name): name is string => typeof name === "string" && name.trim() !== ""))].sort();
}

/** A text field's value; non-strings (from the JSON) are shown as JSON. */
export const textAt = (draft: PolicyDraft, path: Path): string => {
  const value = getIn(draft, path);
  return value === undefined || value === null ? "" : typeof value === "string" ? value : JSON.stringify(value);
};

/** An error path as the API writes it for this editor (`document.strategy_overrides[0].scope`). */
export function formatPath(path: Path): string {
  return path.reduce<string>((text, key) => (typeof key === "number" ? `${text}[${key}]` : text ? `${text}.${key}` : key), "");
}

/** What the editor shows for a new, empty or saved document, formatted the one way. */
export const toJson = (draft: unknown) => JSON.stringify(draft, null, 2);

/** Parses the JSON view; a document must be an object. */
export function parsePolicyJson(text: string): { draft: PolicyDraft; error: null } | { draft: null; error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { draft: null, error: error instanceof Error ? error.message : "This is not valid JSON." };
  }
  if (!isObject(value)) return { draft: null, error: "The policy must be a JSON object ({ … })." };
  return { draft: value, error: null };
}
