import { z } from "zod";
import { PROBLEM_TYPES, type ProblemType, problemTypeUri } from "./problem-types";

// The one definition of the problem+json shape (RFC 9457 as CONTRACT §3 and §11 narrow it).
// Error answers, the problems nested in bulk and catalog answers, the OpenAPI document and the
// console's types all come from here, so they cannot drift apart.

const problemTypeNames = Object.keys(PROBLEM_TYPES) as ProblemType[];

const ProblemTypeUri = z.enum(problemTypeNames.map(problemTypeUri) as [string, ...string[]]).meta({
  id: "ProblemType",
  description: [
    "One URI per failure cause:",
    ...problemTypeNames.map((name) => `- \`${problemTypeUri(name)}\`: ${PROBLEM_TYPES[name]}`),
  ].join("\n"),
});

/** One field that failed; `path` starts at the body's root (`manifest.directives[1].name`). */
const FieldErrorSchema = z
  .object({ path: z.string().meta({ example: "manifest.mental_models[1].id" }), message: z.string() })
  .meta({ id: "FieldError" });

/**
 * A path an update with merge=true found changed on both sides to different values (CONTRACT
 * §16). A side on which the path does not exist holds null and is named in `missing`.
 */
export const MergeConflictSchema = z
  .object({
    path: z.string().meta({ example: "manifest.mental_models[2].source_query" }),
    base: z.unknown().meta({ description: "The value in the version last installed or updated from the source." }),
    local: z.unknown().meta({ description: "The value in the template now." }),
    upstream: z.unknown().meta({ description: "The value in the source's entry." }),
    missing: z
      .array(z.enum(["base", "local", "upstream"]))
      .meta({ description: "The sides on which the path does not exist (deleted, or never added); their value is null." }),
  })
  .meta({ id: "MergeConflict" });

const problemMembers = {
  type: ProblemTypeUri,
  title: z.string(),
  status: z.number().int(),
  detail: z.string().meta({ description: "One human sentence." }),
  errors: z.array(FieldErrorSchema).optional(),
  conflicts: z.array(MergeConflictSchema).optional().meta({ description: "`merge-conflict` only: each conflicting path." }),
};

/** The body of every error answer. */
export const ProblemSchema = z
  .object({
    ...problemMembers,
    request_id: z.string().meta({ description: "The request's X-Request-Id, for support and logs." }),
  })
  .meta({ id: "Problem", description: "RFC 9457 problem details" });

/**
 * A problem inside a successful answer: one template of a bulk call, one catalog entry. The
 * same members as an error answer's body; the request id is the answer's own X-Request-Id.
 */
export const NestedProblemSchema = z.object(problemMembers).meta({
  id: "NestedProblem",
  description: "Why this item failed, with the members of a problem+json body; the other items were not affected.",
});

export type FieldError = z.infer<typeof FieldErrorSchema>;
export type MergeConflict = z.infer<typeof MergeConflictSchema>;
export type Problem = z.infer<typeof ProblemSchema>;
export type NestedProblem = z.infer<typeof NestedProblemSchema>;
