import { z } from "zod";
import { BANK_ID_PATTERN } from "@/lib/contracts/banks/ids";
import { queryFlag, timestamp } from "@/lib/contracts/fields";
import { NestedProblemSchema } from "@/lib/contracts/problem-schema";
import { BankTemplateConfig, BankTemplateDirective, BankTemplateMentalModel } from "@/lib/contracts/templates/manifest";
import { MergeResolutions, TEMPLATE_ID_PATTERN, TemplateVersionSummary } from "@/lib/contracts/templates/schemas";

const bankId = z.string().regex(BANK_ID_PATTERN, "must be 1-128 characters of A-Z, a-z, 0-9, '.', '_', ':' or '-'");

const templateRefDescription = "`personal/{id}`, `server/{id}`, or a bare `{id}` (the caller's personal template, else the server's).";

/** A bank's display name, as a create and a PATCH take it. */
const bankName = z.string().trim().min(1).max(200);

/** How a merge into a bank resolves its conflicts (CONTRACT §21); only with merge. */
const bankResolutions = MergeResolutions.optional().meta({
  description:
    "With merge only: how to resolve conflicts, by the paths a merge-conflict problem names (`manifest.directives[0].content`). When they cover every conflict the merge is written at once; else 409 merge-conflict lists the conflicts left. Paths that are no conflict of a bank are not used.",
});

const mergeDescription =
  "Keep the bank's local edits: merge three ways (base: what its last apply wrote; local: the bank now; upstream: what the template now writes over that base). A conflict answers 409 merge-conflict and writes nothing.";

export const CreateBankRequest = z
  .strictObject({
    bank_id: bankId,
    template: z.string().min(1).meta({ description: templateRefDescription, example: "server/support-bot" }),
    name: bankName.optional().meta({ description: "Display name; defaults to bank_id for a new bank, renames an existing one." }),
    resolutions: bankResolutions,
  })
  .meta({ id: "CreateBankRequest", example: { bank_id: "support:eu", template: "server/support-bot", name: "Support (EU)" } });

const dryRunFlag = queryFlag("Compute what the import would do without writing anything.");

/** POST /banks/rollout's query. */
export const RolloutQuery = z.strictObject({ dry_run: dryRunFlag });

/** POST /banks's query: `merge` keeps the bank's local edits (CONTRACT §21). */
export const CreateBankQuery = z.strictObject({ dry_run: dryRunFlag, merge: queryFlag(mergeDescription) });

export const ImportResult = z
  .object({
    bank_id: z.string(),
    config_applied: z.boolean(),
    mental_models_created: z.array(z.string()).meta({ description: "Ids of mental models created." }),
    mental_models_updated: z.array(z.string()).meta({ description: "Ids of mental models replaced." }),
    directives_created: z.array(z.string()).meta({ description: "Names of directives created." }),
    directives_updated: z.array(z.string()).meta({ description: "Names of directives replaced." }),
    operation_ids: z
      .array(z.string())
      .meta({ description: "Asynchronous operations started by the bank store (none for the embedded store)." }),
    dry_run: z.boolean(),
  })
  .meta({ id: "ImportResult" });
export type ImportResult = z.output<typeof ImportResult>;

const changedEntry = z.record(z.string(), z.unknown());

/**
 * CONTRACT §19: a Hindsight bank whose config Hindsight would not show. Present (true) only then, so
 * an answer without it, from the embedded store or from before the field, reads as before.
 */
const configUnreadable = (then: string) =>
  z
    .literal(true)
    .optional()
    .meta({
      description: `Present, and true, only with the remote store when Hindsight would not show the bank's config: its \`/config\` endpoints answer 404 while the bank exists (Hindsight run with HINDSIGHT_API_ENABLE_BANK_CONFIG_API=false). ${then}`,
    });

/** What a mental model change and a directive change share; `what` names the kind of entry. */
const entryChangeFields = (what: string) => ({
  change: z
    .enum(["create", "update"])
    .meta({ description: `\`create\` for a ${what} the bank lacked, \`update\` for one whose content changes.` }),
  before: changedEntry.nullable().meta({ description: `The ${what} as the bank held it; null for a creation.` }),
  after: changedEntry.meta({ description: `The ${what} as the import leaves it.` }),
});

export const ImportChanges = z
  .object({
    config: z
      .array(
        z
          .object({
            field: z
              .string()
              .meta({ description: "Config field the import sets to a different value.", example: "disposition_literalism" }),
            before: z.unknown().meta({ description: "The bank's value before the import; null when the bank had none." }),
            after: z.unknown().meta({ description: "The value the import sets." }),
          })
          .meta({ id: "ConfigChange" }),
      )
      .meta({ description: "Config fields whose value changes; fields set to the value they had are not listed." }),
    config_unreadable: configUnreadable(
      "`config` is then empty: the import still sets the config fields the template states, but what they replace is unknown, so none is listed as changed (nor as new).",
    ),
    mental_models: z
      .array(z.object({ id: z.string(), ...entryChangeFields("mental model") }).meta({ id: "MentalModelChange" }))
      .meta({ description: "Mental models created or changed, in manifest order; those left identical are not listed." }),
    directives: z
      .array(z.object({ name: z.string(), ...entryChangeFields("directive") }).meta({ id: "DirectiveChange" }))
      .meta({ description: "Directives created or changed, in manifest order; those left identical are not listed." }),
  })
  .meta({
    id: "ImportChanges",
    description:
      "What the import changes, each with its value before and after, computed from the bank as read before the import; a dry run answers what the real import would. With the remote store, entries as Hindsight reports them.",
  });
export type ImportChanges = z.output<typeof ImportChanges>;

export const CreateBankResult = z
  .object({ bank_id: z.string(), template: z.string(), bank_created: z.boolean(), import_result: ImportResult, changes: ImportChanges })
  .meta({ id: "CreateBankResult" });

/** What the template was when applied (CONTRACT §16): its version and whether it held local edits. */
const provenanceFields = {
  template_version: z.number().int().min(1).nullable().meta({
    description: "The template's version number (see its versions) when applied; null for imports recorded before versions were kept.",
  }),
  locally_modified: z.boolean().nullable().meta({
    description:
      "Whether the template held local edits (its content differed from its source's revision) when applied; null as for template_version.",
  }),
};

const historyEntryId = z.string().meta({ description: "Names the entry (e.g. for a policy restore)." });

export const BankImport = z
  .object({
    kind: z.literal("import"),
    id: historyEntryId,
    template: z.string().meta({ description: "Normalised ref of the template applied: `personal/{id}` or `server/{id}`." }),
    source_revision: z.string().nullable().meta({ description: "The template's revision when applied; null for a hand-made template." }),
    ...provenanceFields,
    applied_at: timestamp,
    actor: z.string().meta({ description: "The principal id (user or service account) whose request applied it." }),
    import_result: ImportResult,
  })
  .meta({ id: "BankImport" });

/** A policy document as a history entry holds it (the PolicyDocument; any object, as it was stored), or null: none. */
const policyState = z.record(z.string(), z.unknown()).nullable();

export const BankPolicyChange = z
  .object({
    kind: z.literal("policy"),
    id: historyEntryId,
    actor: z.string().meta({ description: "The principal id whose request changed the policy." }),
    at: timestamp,
    before: policyState.meta({ description: "The policy document before the change; null when the bank had none." }),
    after: policyState.meta({ description: "The policy document after the change; null for a deletion." }),
    restored_from: historyEntryId
      .nullable()
      .meta({ description: "The id of the entry whose `after` this change put back (a policy restore); null for a PUT or DELETE." }),
  })
  .meta({ id: "BankPolicyChange" });

/**
 * What an edit touched (CONTRACT §21), before or after it: only the keys it touched, each entry keyed by
 * its id or name and null where there is none (a creation's before, a removal's after), a config field
 * null where the bank has no value of its own (the server's default).
 */
const BankEditState = z
  .object({
    name: z.string().optional().meta({ description: "The bank's name, when the edit named one." }),
    config: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: "Each config field the edit named, with its value; null: the bank's own value is unset." }),
    mental_models: z
      .record(z.string(), z.record(z.string(), z.unknown()).nullable())
      .optional()
      .meta({ description: "The mental model the edit put or removed, by id; null: the bank had (or has) none of that id." }),
    directives: z
      .record(z.string(), z.record(z.string(), z.unknown()).nullable())
      .optional()
      .meta({ description: "The directive the edit put or removed, by name; null: the bank had (or has) none of that name." }),
  })
  .meta({ id: "BankEditState" });

export const BankEdit = z
  .object({
    kind: z.literal("edit"),
    id: historyEntryId,
    actor: z.string().meta({ description: "The principal id whose request edited the bank." }),
    at: timestamp,
    before: BankEditState.meta({ description: "What the edit touched, as it was before." }),
    after: BankEditState.meta({ description: "What the edit touched, as it left it (with the remote store, as Hindsight reports it)." }),
  })
  .meta({
    id: "BankEdit",
    description:
      "One edit of the bank in place (PATCH of the bank, PUT or DELETE of a mental model or directive); `before` and `after` have the same keys.",
  });

export const BankRestore = z
  .object({
    kind: z.literal("restore"),
    id: historyEntryId,
    actor: z.string().meta({ description: "The principal id whose request restored the bank." }),
    at: timestamp,
    restored_from: historyEntryId.meta({
      description: "The id of the entry (an import, an edit or a restore) whose content was put back.",
    }),
  })
  .meta({
    id: "BankRestore",
    description: "One restore of the bank's content (config, mental models, directives) to what it was right after an earlier entry.",
  });

export const BankHistoryEntry = z
  .discriminatedUnion("kind", [BankImport, BankPolicyChange, BankEdit, BankRestore])
  .meta({ id: "BankHistoryEntry" });
export type BankHistoryEntry = z.output<typeof BankHistoryEntry>;

export const BankHistory = z
  .object({
    entries: z.array(BankHistoryEntry).meta({
      description:
        "Newest first: one `import` entry per real import (never dry runs), one `policy` entry per PUT or DELETE of the bank's policy, one `edit` entry per edit of the bank in place, and one `restore` entry per real restore.",
    }),
  })
  .meta({ id: "BankHistory" });

const LastApplied = z
  .object({
    template: z.string().meta({ description: "Normalised ref: `personal/{id}` or `server/{id}`." }),
    source_revision: z.string().nullable(),
    ...provenanceFields,
    applied_at: timestamp,
  })
  .nullable()
  .meta({ id: "LastApplied" });

/**
 * The newest version of the template a bank was last applied from, as the template's versions list
 * it: what a rollout would apply now. A rollback restores an older version's content, so a bank
 * "behind" it goes back when it is rolled out; the console says so.
 */
const NewestTemplateVersion = TemplateVersionSummary.pick({ version: true, action: true, restored_version: true }).nullable().meta({
  id: "NewestTemplateVersion",
  description:
    "The newest version of the template last applied: its number, what wrote it and, for a rollback, the version it restored (so a rollout that takes the bank back to older content can say so). The bank is `behind` when it is newer than `last_applied.template_version`. Null when no template was applied, the template is gone, or it has no recorded version.",
});

/** Always set by the embedded store; null only for a Hindsight bank (remote store) whose server reports no such time. */
const remoteTimestamp = timestamp.nullable().meta({
  description: "Null only with the remote store (HINDSIGHT_API_URL), when Hindsight reports no such time for the bank.",
});

export const BankSummary = z
  .object({
    bank_id: z.string(),
    name: z.string(),
    owner: z.string().nullable(),
    created_at: remoteTimestamp,
    updated_at: remoteTimestamp,
    last_applied: LastApplied,
    behind: z.boolean().meta({
      description: "True when the template last applied still exists and has a newer version than the one applied (CONTRACT §16).",
    }),
    newest_version: NewestTemplateVersion,
  })
  .meta({ id: "BankSummary" });

export const BankList = z.object({ banks: z.array(BankSummary) }).meta({ id: "BankList" });

/** A template ref as POST /banks takes it, checked by its form (whether it exists is the service's answer). */
const TEMPLATE_REF_PATTERN = new RegExp(`^(?:(?:personal|server)/)?${TEMPLATE_ID_PATTERN.source.slice(1, -1)}$`);
const templateRef = z
  .string()
  .regex(TEMPLATE_REF_PATTERN, "must be personal/{id}, server/{id} or a template id")
  .meta({ description: templateRefDescription, example: "server/support-bot" });

export const BankListQuery = z.strictObject({
  template: templateRef.optional().meta({
    description: "Only the banks whose last applied template is this one (CONTRACT §16); 404 when no such template is available to you.",
  }),
});

/** Most banks one rollout names: each is a transaction of its own, so the answer stays within a request's time. */
const MAX_ROLLOUT_BANKS = 1000;

/** A bank a rollout names with the version it was read at (CONTRACT §19): applied only while it is still that version. */
const ConditionalBank = z
  .strictObject({
    bank_id: bankId,
    if_match: z.string().min(1).max(200).meta({
      description:
        "The bank's ETag as you read it: when the bank is no longer at that version, this bank fails with a 412 `precondition-failed` problem and the others go on.",
    }),
  })
  .meta({ id: "ConditionalBank" });

/** The id a rollout entry names, given alone or with its `if_match`. */
export const rolloutBankId = (entry: string | { bank_id: string }) => (typeof entry === "string" ? entry : entry.bank_id);

export const RolloutRequest = z
  .strictObject({
    template: templateRef,
    bank_ids: z
      .array(z.union([bankId, ConditionalBank]))
      .min(1)
      .max(MAX_ROLLOUT_BANKS)
      .refine((entries) => new Set(entries.map(rolloutBankId)).size === entries.length, "must not name a bank twice")
      .optional()
      .meta({
        description:
          "The banks to apply the template to, in this order: ids, or `{bank_id, if_match}` pairs that apply only to a bank still at that ETag. Absent: every bank you may write whose last applied template is this one and which is behind, by id.",
      }),
    merge: z
      .boolean()
      .optional()
      .meta({ description: `${mergeDescription} For a rollout, that bank's \`problem\`; the others go on.` }),
    resolutions: bankResolutions,
  })
  .meta({ id: "RolloutRequest", example: { template: "server/support-bot", bank_ids: ["support:eu", "support:us"] } });

export const RolloutBankResult = z
  .object({
    bank_id: z.string(),
    applied: z.boolean().meta({ description: "Whether the template was applied (on a dry run: whether it could be; nothing is written)." }),
    import_result: ImportResult.nullable().meta({ description: "As POST /banks answers it; null when the bank failed." }),
    changes: ImportChanges.nullable().meta({ description: "As POST /banks answers them; null when the bank failed." }),
    problem: NestedProblemSchema.nullable().meta({
      description: "Why this bank failed (as POST /banks would have answered); null when applied.",
    }),
  })
  .meta({ id: "RolloutBankResult" });

export const RolloutResult = z
  .object({
    results: z.array(RolloutBankResult).meta({ description: "One per bank: in bank_ids order when given, else by bank id." }),
  })
  .meta({ id: "RolloutResult" });

export const BankDetail = BankSummary.extend({
  config: z.record(z.string(), z.unknown()).meta({ description: "Config overrides, merged field by field by each import." }),
  config_unreadable: configUnreadable(
    "`config` is then empty, not the bank's; mental models and directives are as Hindsight reports them, and the bank's export leaves out its `bank` section.",
  ),
  mental_models: z.array(z.record(z.string(), z.unknown())).meta({ description: "Mental models as applied, in the order first added." }),
  directives: z.array(z.record(z.string(), z.unknown())).meta({ description: "Directives as applied, in the order first added." }),
  has_policy: z.boolean().meta({ description: "Whether a policy document exists for this bank id." }),
  locally_modified: z.boolean().meta({
    description:
      "True when the bank's content (config, mental models, directives) differs from what its last apply or rollout left: it was edited in place since (CONTRACT §21). False for a bank never applied through this server, and for one whose last apply was recorded before this was kept (see the API decisions).",
  }),
}).meta({ id: "BankDetail" });

export const bankParams = z.object({ bank_id: bankId });

export const mentalModelParams = bankParams.extend({
  id: z.string().min(1).meta({ description: "The mental model's id (its match key on import)." }),
});

export const directiveParams = bankParams.extend({
  name: z.string().regex(/\S/, "must not be blank").meta({ description: "The directive's name (its match key on import)." }),
});

export const PatchBankRequest = z
  .strictObject({
    name: bankName.optional().meta({ description: "The bank's new display name." }),
    config: BankTemplateConfig.optional().meta({
      description:
        "Config fields to set, merged into the bank's own as an import merges them (fields not named keep their values); a field set to null drops the bank's own value, so the server's default applies again.",
    }),
  })
  .meta({
    id: "PatchBankRequest",
    example: { name: "Support (EU)", config: { disposition_empathy: 4, retain_mission: null } },
  });

/** A body that leaves out its entry's match key: the path names it, and a key in the body too is refused. */
const keyFromPath = (key: string) =>
  z
    .undefined({ error: `is given by the path; leave ${key} out of the body` })
    .optional()
    .meta({ description: `Leave out: the path gives the ${key}.` });

export const PutMentalModelRequest = BankTemplateMentalModel.omit({ id: true })
  .extend({ id: keyFromPath("id") })
  .meta({
    id: "PutMentalModelRequest",
    description: "One mental model of a bank template manifest, without its `id` (the path gives it); it replaces the bank's whole.",
    example: { name: "Open questions", source_query: "What is still open?", max_tokens: 1024 },
  });

export const PutDirectiveRequest = BankTemplateDirective.omit({ name: true })
  .extend({ name: keyFromPath("name") })
  .meta({
    id: "PutDirectiveRequest",
    description: "One directive of a bank template manifest, without its `name` (the path gives it); it replaces the bank's whole.",
    example: { content: "Name the document each fact comes from.", priority: 5 },
  });

export const RestoreBankRequest = z
  .strictObject({
    entry: historyEntryId.min(1).max(200).meta({
      description:
        "The id of an `import`, `edit` or `restore` entry of the bank's history: its content right after that entry is put back.",
    }),
  })
  .meta({ id: "RestoreBankRequest", example: { entry: "3f2b9c1e-5d0a-4c8e-9a51-2b7f0d6e4a10" } });

export const RestoreBankQuery = z.strictObject({
  dry_run: queryFlag("Answer what the restore would change without writing anything."),
});

/** What a mental model change and a directive change of a restore share; `what` names the kind of entry. */
const restoredEntryFields = (what: string) => ({
  change: z.enum(["create", "update", "delete"]).meta({
    description: `\`create\` for a ${what} the bank lacks, \`update\` for one whose content changes, \`delete\` for one the bank did not have then.`,
  }),
  before: changedEntry.nullable().meta({ description: `The ${what} as the bank holds it; null for a creation.` }),
  after: changedEntry.nullable().meta({ description: `The ${what} as the restore leaves it; null for a removal.` }),
});

export const RestoreChanges = z
  .object({
    config: z
      .array(
        z.object({
          field: z.string(),
          before: z.unknown().meta({ description: "The bank's own value now; null: none (the server's default)." }),
          after: z.unknown().meta({ description: "The value the restore puts back; null: none (the server's default)." }),
        }),
      )
      .meta({ description: "Config fields whose value changes." }),
    config_unreadable: configUnreadable("`config` is then empty, and the restore leaves the bank's config as it is."),
    mental_models: z
      .array(z.object({ id: z.string(), ...restoredEntryFields("mental model") }))
      .meta({ description: "Mental models created, changed or removed; those left identical are not listed." }),
    directives: z
      .array(z.object({ name: z.string(), ...restoredEntryFields("directive") }))
      .meta({ description: "Directives created, changed or removed; those left identical are not listed." }),
  })
  .meta({
    id: "RestoreChanges",
    description:
      "What a restore changes in the bank, each with its value before and after; a dry run answers what the real restore would. With the remote store, entries as Hindsight reports them.",
  });
export type RestoreChanges = z.output<typeof RestoreChanges>;

export const BankRestoreResult = z
  .object({
    bank_id: z.string(),
    restored_from: historyEntryId.meta({ description: "The entry whose content was (or, on a dry run, would be) put back." }),
    dry_run: z.boolean(),
    changes: RestoreChanges,
  })
  .meta({ id: "BankRestoreResult" });
