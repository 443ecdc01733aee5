import { z } from "zod";
import { BANK_ID_PATTERN } from "@/lib/contracts/banks/ids";
import { POLICY_VERSION } from "@/lib/contracts/policy/version";

/** The one document version this server understands (CONTRACT §9); zod-free, for the console too. */
export { POLICY_VERSION };

// Every object below is strict: an unknown key anywhere is a 422 at that key's own path.

const nonEmpty = z.string().min(1, "must not be empty");

/** A field's own message for a wrong value, keeping the shared "is required" when it is missing. */
const unlessMissing = (message: string) => (issue: { input?: unknown }) => (issue.input === undefined ? "is required" : message);

export const PolicyScope = z
  .enum(["provider", "channel", "topic"], { error: unlessMissing("must be one of provider, channel, topic") })
  .meta({ id: "PolicyScope", description: "Which context value an override matches; topic is the most specific, provider the least." });
export type PolicyScope = z.output<typeof PolicyScope>;

const RecallBudget = z.enum(["low", "mid", "high"], { error: unlessMissing("must be one of low, mid, high") }).meta({ id: "RecallBudget" });

const actions = z
  .array(nonEmpty.meta({ example: "bank:recall" }))
  .min(1, "must list at least one action")
  .meta({ description: "What public callers may do, such as `bank:recall`." });

const recallMaxTokens = z
  .number({ error: "must be a positive integer" })
  .int("must be a positive integer")
  .positive("must be a positive integer");

/** Fields shared by the public-access default and its overrides; null counts as absent. */
const grantFields = {
  actions,
  recall_budget: RecallBudget.nullish().meta({ description: "Recall budget granted; absent or null leaves it unset." }),
  recall_max_tokens: recallMaxTokens
    .nullish()
    .meta({ description: "Most tokens a public recall may return; absent or null leaves it unset." }),
};

const scopeMatch = {
  scope: PolicyScope,
  value: nonEmpty.meta({ description: "The provider, channel or topic this override applies to (exact match)." }),
};

const StrategyOverride = z
  .strictObject({ ...scopeMatch, strategy: nonEmpty.meta({ description: "Strategy to use in this context." }) })
  .meta({ id: "PolicyStrategyOverride" });

const PublicAccessGrant = z
  .strictObject(grantFields)
  .meta({ id: "PolicyPublicAccessGrant", description: "Public access granted when no override matches." });

const PublicAccessOverride = z.strictObject({ ...scopeMatch, ...grantFields }).meta({
  id: "PolicyPublicAccessOverride",
  description: "Replaces the default grant whole in its context; omitted fields are not inherited.",
});

const PublicAccess = z
  .strictObject({
    default: PublicAccessGrant.nullish(),
    overrides: z.array(PublicAccessOverride).nullish(),
  })
  .meta({ id: "PolicyPublicAccess" });

export const PolicyDocument = z
  .strictObject({
    version: z.literal(POLICY_VERSION, { error: unlessMissing(`must be "${POLICY_VERSION}"`) }),
    default_strategy: nonEmpty.nullish().meta({ description: "Strategy used when no strategy override matches." }),
    strategy_overrides: z.array(StrategyOverride).nullish(),
    public_access: PublicAccess.nullish().meta({ description: "Absent or null: no public access in any context." }),
  })
  .meta({ id: "PolicyDocument", description: "A bank's policy. Optional fields may be null, which means the same as absent." });
export type PolicyDocument = z.output<typeof PolicyDocument>;

export const PutPolicyRequest = z.strictObject({ document: PolicyDocument }).meta({
  id: "PutPolicyRequest",
  description: "Creates or replaces the bank's policy.",
  example: {
    document: {
      version: POLICY_VERSION,
      default_strategy: "balanced",
      strategy_overrides: [{ scope: "channel", value: "incidents", strategy: "thorough" }],
      public_access: { default: { actions: ["bank:recall"], recall_budget: "low" } },
    },
  },
});

export const BankPolicy = z.object({ bank_id: z.string(), document: PolicyDocument }).meta({ id: "BankPolicy" });

export const RestorePolicyRequest = z
  .strictObject({
    entry: z
      .string()
      .min(1, "must not be empty")
      .meta({ description: "The id of a `policy` entry of the bank's history (GET P/banks/{bank_id}/history)." }),
  })
  .meta({
    id: "RestorePolicyRequest",
    description: "Puts back the policy as that history entry left it.",
    example: { entry: "0b9c7e52-6f1d-4c63-9a39-2f5d1e8b7a10" },
  });

export const RestoredPolicy = z
  .object({
    bank_id: z.string(),
    document: PolicyDocument.nullable().meta({
      description: "The bank's policy now: the entry's `after`, or null when the entry was a deletion.",
    }),
  })
  .meta({
    id: "RestoredPolicy",
    description: "The bank's policy after the restore, as GET answers it, or a null document when it has none.",
  });

export const ResolvedPublicAccess = z
  .object({
    actions: z.array(z.string()),
    recall_budget: RecallBudget.nullable(),
    recall_max_tokens: z.number().int().nullable(),
  })
  .meta({ id: "ResolvedPublicAccess", description: "Taken whole from the winning override or the default." });
export type ResolvedPublicAccess = z.output<typeof ResolvedPublicAccess>;

export const ResolvedPolicy = z
  .object({
    strategy: z.string().nullable().meta({ description: "The winning override's strategy, else default_strategy, else null." }),
    public_access: ResolvedPublicAccess.nullable().meta({ description: "Null when nothing grants public access in this context." }),
  })
  .meta({ id: "ResolvedPolicy", description: "What applies in one context; strategy and public access are resolved independently." });
export type ResolvedPolicy = z.output<typeof ResolvedPolicy>;

export const ResolveQuery = z.strictObject({
  provider: z.string().optional().meta({ description: "Provider of the request context." }),
  channel: z.string().optional().meta({ description: "Channel of the request context." }),
  topic: z.string().optional().meta({ description: "Topic of the request context." }),
});
export type PolicyContext = z.output<typeof ResolveQuery>;

export const bankPolicyParams = z.object({
  bank_id: z.string().regex(BANK_ID_PATTERN, "must be 1-128 characters of A-Z, a-z, 0-9, '.', '_', ':' or '-'"),
});
