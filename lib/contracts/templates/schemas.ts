import { z } from "zod";
import { queryFlag, timestamp } from "@/lib/contracts/fields";
import { MergeConflictSchema, NestedProblemSchema } from "@/lib/contracts/problem-schema";
import { contentAnswerShape, createContentShape, detailsAnswerShape, patchContentShape, TemplateContentSchema } from "./content";

export const TEMPLATE_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
export const templateId = z
  .string()
  .regex(TEMPLATE_ID_PATTERN, "must be 1-128 characters of A-Z, a-z, 0-9, '.', '_' or '-', starting with a letter or digit");

const scopeName = z.enum(["personal", "server"]);

export const Template = z
  .object({
    id: z.string(),
    ...detailsAnswerShape,
    scope: scopeName,
    owner: z.string().nullable().meta({ description: "user_id of a personal template's owner; null for server templates." }),
    source_name: z.string().nullable(),
    source_scope: scopeName.nullable(),
    source_owner: z.string().nullable(),
    source_revision: z.string().nullable(),
    locally_modified: z
      .boolean()
      .meta({ description: "True once a template installed from a source is edited; false again after an update." }),
    latest_revision: z
      .string()
      .nullable()
      .meta({ description: "The source's revision at the last update check; null for hand-made templates." }),
    update_checked_at: timestamp.nullable().meta({ description: "When the update status was last checked; null for hand-made templates." }),
    installed_at: timestamp,
    updated_at: timestamp,
    manifest: contentAnswerShape.manifest,
  })
  .meta({ id: "Template" });

export const TemplateList = z
  .object({
    templates: z.array(Template),
    next_cursor: z.string().nullable().optional().meta({ description: "Present when `limit` was given; null on the last page." }),
  })
  .meta({ id: "TemplateList" });

/** A small valid manifest, the example of every request body that carries one. */
const exampleManifest = {
  version: "1",
  bank: { retain_mission: "Keep decisions and their reasons." },
  mental_models: [{ id: "decisions", name: "Decisions", source_query: "What was decided?" }],
  directives: [{ name: "Be brief", content: "Answer in three sentences or fewer." }],
};

export const CreateTemplateRequest = z.strictObject({ id: templateId, ...createContentShape }).meta({
  id: "CreateTemplateRequest",
  example: { id: "support-bot", name: "Support bot", manifest: exampleManifest, category: "support", tags: ["starter"] },
});

export const PatchTemplateRequest = z.strictObject(patchContentShape).meta({
  id: "PatchTemplateRequest",
  description:
    "Every field optional; `{}` changes nothing. `null` clears description, category or homepage_url, and leaves name, integrations, tags or manifest as they are.",
  example: { description: "Answers support questions.", category: null },
});

export const InstallTemplateRequest = z
  .strictObject({
    source_name: z.string().min(1),
    alias_id: templateId.optional().meta({ description: "Id to install under; default: the template's id in the source." }),
    source_scope: scopeName
      .optional()
      .meta({ description: "Which source of that name; default: the caller's personal one, else the server's." }),
  })
  .meta({ id: "InstallTemplateRequest", example: { source_name: "acme", source_scope: "server" } });

export const UpdateResult = z
  .object({ updated: z.boolean(), previous_revision: z.string(), new_revision: z.string(), template: Template })
  .meta({ id: "UpdateResult" });

export const CheckUpdateResult = z
  .object({
    has_update: z.boolean(),
    current_revision: z.string().nullable(),
    latest_revision: z.string().nullable(),
    source_name: z.string().nullable(),
    source_scope: scopeName.nullable(),
  })
  .meta({ id: "CheckUpdateResult" });

export const ListTemplatesQuery = z.strictObject({
  category: z.string().optional(),
  tag: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
  cursor: z.string().optional(),
});

const forceFlag = queryFlag("Overwrite local edits, and rewrite even when the revision is unchanged.");

/** POST T/update-all. */
export const UpdateQuery = z.strictObject({ force: forceFlag });

const mergeFlag = (description: string) => ({ merge: queryFlag(description) });

/** POST T/{id}/update: `force` overwrites local edits, `merge` keeps them (CONTRACT §16); not both. */
export const UpdateOneQuery = z
  .strictObject({
    force: forceFlag,
    ...mergeFlag(
      "Keep local edits: merge three ways (base: the version last installed or updated from the source). Conflicts answer 409 merge-conflict.",
    ),
  })
  .superRefine((query, ctx) => {
    if (query.merge && query.force) ctx.addIssue({ code: "custom", path: ["merge"], message: "cannot be combined with force" });
  });

/** How one conflict of a merge is resolved (CONTRACT §21); lib/contracts/templates/merge.ts applies it. */
const MergeResolutionSchema = z
  .strictObject({
    path: z
      .string()
      .min(1)
      .max(2000)
      .meta({ description: "A conflict's path, as the merge-conflict problem names it.", example: "manifest.directives[0].content" }),
    take: z.enum(["local", "upstream", "value"]).meta({
      description:
        "`local`: the template's own value; `upstream`: the source's (either may be a side without the path, which deletes it); `value`: the `value` given.",
    }),
    value: z.unknown().optional().meta({ description: "With `take: value` only, and then required: the path's value (any JSON)." }),
  })
  .superRefine((resolution, ctx) => {
    const given = Object.hasOwn(resolution, "value");
    if (resolution.take === "value" && !given) ctx.addIssue({ code: "custom", path: ["value"], message: "is required with take: value" });
    if (resolution.take !== "value" && given)
      ctx.addIssue({ code: "custom", path: ["value"], message: "is only allowed with take: value" });
  })
  .meta({ id: "MergeResolution" });

/** A merge request's resolutions (CONTRACT §21), each path at most once: templates' update and banks' applies take them. */
export const MergeResolutions = z
  .array(MergeResolutionSchema)
  .max(1000)
  .superRefine((resolutions, ctx) => {
    const seen = new Set<string>();
    for (const [i, { path }] of resolutions.entries()) {
      if (seen.has(path)) ctx.addIssue({ code: "custom", path: [i, "path"], message: "resolves a path already resolved" });
      seen.add(path);
    }
  });

/** POST T/{id}/update: the body is optional (read as `{}`); `resolutions` only with merge=true. */
export const UpdateRequest = z
  .strictObject({
    resolutions: MergeResolutions.optional().meta({
      description:
        "With merge=true only: how to resolve conflicts. When they cover every conflict the merge is written at once, as one version with action `merge`; else 409 merge-conflict lists the conflicts left. A path that is not a conflict is 422.",
    }),
  })
  .meta({
    id: "UpdateRequest",
    example: {
      resolutions: [
        { path: "name", take: "local" },
        { path: "manifest.directives[0].content", take: "value", value: "Answer warmly and briefly." },
      ],
    },
  });

export const UpdatePreviewQuery = z.strictObject(
  mergeFlag("Also answer `merge`: what an update with merge=true would write, and its conflicts."),
);

export const templateParams = z.object({ template_id: templateId });

export const ValidateManifestRequest = z
  .strictObject({ manifest: z.unknown().refine((m) => m !== undefined, "is required") })
  .meta({ id: "ValidateManifestRequest", example: { manifest: exampleManifest } });

export const ManifestValidation = z
  .object({
    valid: z.boolean(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })),
    warnings: z.array(z.object({ path: z.string(), message: z.string() })),
  })
  .meta({ id: "ManifestValidation" });

const MergePreview = z
  .object({
    base_version: z.number().int().min(1).meta({ description: "The template version the merge starts from." }),
    base: TemplateContentSchema.meta({ description: "That version's content: the source's as last installed or updated." }),
    merged: TemplateContentSchema.meta({
      description: "What an update with merge=true would write; at a conflicting path, the template's own value.",
    }),
    conflicts: z
      .array(MergeConflictSchema)
      .meta({ description: "Paths changed on both sides to different values; empty when the merge can be written." }),
    locally_modified: z
      .boolean()
      .meta({ description: "Whether the template would still have local edits: the merge differs from upstream." }),
  })
  .meta({ id: "MergePreview" });

export const UpdatePreview = z
  .object({
    has_update: z.boolean(),
    current_revision: z.string(),
    latest_revision: z.string(),
    locally_modified: z.boolean(),
    current: Template,
    latest: TemplateContentSchema.meta({ description: "What an update would write, as the source holds it now." }),
    merge: MergePreview.optional().meta({ description: "With merge=true only." }),
  })
  .meta({ id: "UpdatePreview" });

// Template lifecycle (CONTRACT §13): versions, rollback, bulk checks and updates.

/** What wrote a version; `merge`: an update whose conflicts the request resolved (CONTRACT §21). */
const versionAction = z.enum(["create", "install", "patch", "update", "merge", "rollback"]);

export const TemplateVersionSummary = z
  .object({
    version: z.number().int().min(1),
    action: versionAction,
    created_at: timestamp,
    actor: z.string().meta({ description: "The principal id (user or service account) whose request wrote it." }),
    restored_version: z.number().int().nullable().meta({
      description: "For a rollback, the version it restored; null for every other action (and rollbacks recorded before it was kept).",
    }),
    source_revision: z.string().nullable(),
    locally_modified: z.boolean(),
  })
  .meta({ id: "TemplateVersionSummary" });

export const TemplateVersionList = z
  .object({ versions: z.array(TemplateVersionSummary).meta({ description: "Newest first; the newest 50 are kept." }) })
  .meta({ id: "TemplateVersionList" });

export const TemplateVersion = TemplateVersionSummary.extend(contentAnswerShape).meta({ id: "TemplateVersion" });

export const templateVersionParams = templateParams.extend({
  version: z.coerce.number().int().min(1).max(2_147_483_647),
});

export const RollbackRequest = z
  .strictObject({ version: z.number().int().min(1).max(2_147_483_647) })
  .meta({ id: "RollbackRequest", example: { version: 2 } });

export const CheckUpdatesResult = z
  .object({
    results: z.array(
      z.object({
        id: z.string(),
        has_update: z.boolean(),
        current_revision: z.string().nullable(),
        latest_revision: z.string().nullable(),
        problem: NestedProblemSchema.nullable(),
      }),
    ),
  })
  .meta({ id: "CheckUpdatesResult" });

export const UpdateAllResult = z
  .object({
    results: z.array(
      z.object({
        id: z.string(),
        updated: z.boolean(),
        previous_revision: z.string().nullable(),
        new_revision: z.string().nullable(),
        problem: NestedProblemSchema.nullable(),
      }),
    ),
  })
  .meta({ id: "UpdateAllResult" });
