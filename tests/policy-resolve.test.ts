import { describe, expect, it } from "vitest";
import { describeRule, explainPolicy, resolvePolicy } from "@/lib/contracts/policy/resolve";
import { type PolicyContext, PolicyDocument } from "@/lib/contracts/policy/schemas";
import { resolvePolicy as serverResolve } from "@/lib/services/policy/policy";

// The resolution the API and the console's resolve preview share: which rule wins, named
// the way the preview shows it.

const DOC = PolicyDocument.parse({
  version: "2026-03-24",
  default_strategy: "balanced",
  strategy_overrides: [
    { scope: "provider", value: "slack", strategy: "fast" },
    { scope: "channel", value: "slack", strategy: "chatty" },
    { scope: "topic", value: "billing", strategy: "careful" },
    { scope: "topic", value: "billing", strategy: "never-picked" },
  ],
  public_access: {
    default: { actions: ["bank:recall"], recall_budget: "mid" },
    overrides: [{ scope: "channel", value: "internal", actions: ["bank:reflect"] }],
  },
});

const rulesOf = (document: PolicyDocument, context: PolicyContext) => {
  const { strategyRule, accessRule } = explainPolicy(document, context);
  return [describeRule(strategyRule), describeRule(accessRule)];
};

describe("which policy rule wins", () => {
  it.each<[string, PolicyContext, (string | null)[]]>([
    ["the defaults without a context", {}, ["default_strategy", "public_access.default"]],
    ["a provider override", { provider: "slack" }, ["strategy_overrides[0] (provider = slack)", "public_access.default"]],
    [
      "a channel over a provider",
      { provider: "slack", channel: "slack" },
      ["strategy_overrides[1] (channel = slack)", "public_access.default"],
    ],
    [
      "the first of two topic overrides",
      { channel: "internal", topic: "billing" },
      ["strategy_overrides[2] (topic = billing)", "public_access.overrides[0] (channel = internal)"],
    ],
    ["the defaults for an unmatched context", { provider: "teams" }, ["default_strategy", "public_access.default"]],
  ])("names %s", (_, context, expected) => {
    expect(rulesOf(DOC, context)).toEqual(expected);
  });

  it("names no rule when nothing applies", () => {
    const bare = PolicyDocument.parse({ version: "2026-03-24", public_access: { overrides: [] } });
    expect(explainPolicy(bare, { topic: "x" })).toEqual({
      resolved: { strategy: null, public_access: null },
      strategyRule: { kind: "none" },
      accessRule: { kind: "none" },
    });
    expect(rulesOf(bare, {})).toEqual([null, null]);
  });

  it("gives the server the same answer as before, without the rules", () => {
    for (const context of [{}, { provider: "slack" }, { channel: "internal", topic: "billing" }]) {
      expect(serverResolve(DOC, context)).toEqual(explainPolicy(DOC, context).resolved);
      expect(resolvePolicy(DOC, context)).toEqual(explainPolicy(DOC, context).resolved);
    }
    expect(serverResolve(DOC, { channel: "internal" })).toEqual({
      strategy: "balanced",
      public_access: { actions: ["bank:reflect"], recall_budget: null, recall_max_tokens: null },
    });
  });
});
