// How a policy resolves in one context (CONTRACT §9), as pure functions over the document.
// No server-only marker and only type imports: the API answers /resolve with it, and the
// console's resolve preview runs the same code to say which rule won.
import type { PolicyContext, PolicyDocument, PolicyScope, ResolvedPolicy, ResolvedPublicAccess } from "@/lib/contracts/policy/schemas";

/** Most specific first: a topic override beats a channel one, which beats a provider one. */
const SPECIFICITY: readonly PolicyScope[] = ["topic", "channel", "provider"];

interface ScopedEntry {
  scope: PolicyScope;
  value: string;
}

/**
 * The rule of the document that decided a value: an override (by its place in its list), a
 * default, or none (nothing applies, so the value is null).
 */
export type PolicyRule =
  | { kind: "override"; list: "strategy_overrides" | "public_access.overrides"; index: number; scope: PolicyScope; value: string }
  | { kind: "default"; field: "default_strategy" | "public_access.default" }
  | { kind: "none" };

export interface ExplainedResolution {
  resolved: ResolvedPolicy;
  /** Which rule gave `resolved.strategy`. */
  strategyRule: PolicyRule;
  /** Which rule gave `resolved.public_access`. */
  accessRule: PolicyRule;
}

/**
 * The override that applies in `context`, with its index: the most specific scope that the
 * context names and some entry matches exactly; within one scope, the first matching entry
 * in list order.
 */
function winningOverride<T extends ScopedEntry>(
  overrides: readonly T[] | null | undefined,
  context: PolicyContext,
): { entry: T; index: number } | undefined {
  for (const scope of SPECIFICITY) {
    const wanted = context[scope];
    if (wanted === undefined) continue;
    const index = overrides?.findIndex((o) => o.scope === scope && o.value === wanted) ?? -1;
    if (index >= 0) return { entry: overrides![index]!, index };
  }
  return undefined;
}

function resolveStrategy(document: PolicyDocument, context: PolicyContext): { strategy: string | null; rule: PolicyRule } {
  const hit = winningOverride(document.strategy_overrides, context);
  if (hit) {
    const { scope, value } = hit.entry;
    return { strategy: hit.entry.strategy, rule: { kind: "override", list: "strategy_overrides", index: hit.index, scope, value } };
  }
  if (document.default_strategy != null)
    return { strategy: document.default_strategy, rule: { kind: "default", field: "default_strategy" } };
  return { strategy: null, rule: { kind: "none" } };
}

function resolvePublicAccess(
  document: PolicyDocument,
  context: PolicyContext,
): { publicAccess: ResolvedPublicAccess | null; rule: PolicyRule } {
  const access = document.public_access;
  const hit = access ? winningOverride(access.overrides, context) : undefined;
  const grant = hit?.entry ?? access?.default;
  if (!grant) return { publicAccess: null, rule: { kind: "none" } };
  const rule: PolicyRule = hit
    ? { kind: "override", list: "public_access.overrides", index: hit.index, scope: hit.entry.scope, value: hit.entry.value }
    : { kind: "default", field: "public_access.default" };
  // Taken whole, never merged: what the winning grant leaves out is null, not the default's value.
  return {
    publicAccess: {
      actions: [...grant.actions],
      recall_budget: grant.recall_budget ?? null,
      recall_max_tokens: grant.recall_max_tokens ?? null,
    },
    rule,
  };
}

/** What a policy means in one context, and which rule decided each part. */
export function explainPolicy(document: PolicyDocument, context: PolicyContext): ExplainedResolution {
  const strategy = resolveStrategy(document, context);
  const access = resolvePublicAccess(document, context);
  return {
    resolved: { strategy: strategy.strategy, public_access: access.publicAccess },
    strategyRule: strategy.rule,
    accessRule: access.rule,
  };
}

/** What a policy means in one context (CONTRACT §9); strategy and public access resolve independently. */
export function resolvePolicy(document: PolicyDocument, context: PolicyContext): ResolvedPolicy {
  return explainPolicy(document, context).resolved;
}

/** A rule as the console names it: `strategy_overrides[1] (channel = slack)`, `default_strategy`. */
export function describeRule(rule: PolicyRule): string | null {
  switch (rule.kind) {
    case "override":
      return `${rule.list}[${rule.index}] (${rule.scope} = ${rule.value})`;
    case "default":
      return rule.field;
    case "none":
      return null;
  }
}
