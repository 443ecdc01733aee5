import { z } from "zod";
import { queryFlag, timestamp } from "@/lib/contracts/fields";
import { NestedProblemSchema } from "@/lib/contracts/problem-schema";
import { parseHttpUrl, SOURCE_NAME_PATTERN, SOURCE_NAME_RULE } from "@/lib/contracts/sources/names";
import { detailsAnswerShape } from "@/lib/contracts/templates/content";

const sourceName = z.string().regex(SOURCE_NAME_PATTERN, SOURCE_NAME_RULE);

export const Source = z
  .object({
    name: z.string(),
    url: z.string(),
    scope: z.enum(["personal", "server"]),
    owner: z.string().nullable().meta({ description: "user_id of a personal source's owner; null for server sources." }),
    has_auth: z.boolean().meta({ description: "Whether an auth token is stored. The token is never returned." }),
    description: z.string().nullable().meta({ description: "As given when the source was registered; null when none was." }),
    created_at: timestamp,
    updated_at: timestamp,
    catalog_fetched_at: timestamp.nullable().meta({
      description:
        "When the marketplace last answered for this source's catalog (fetched, or revalidated unchanged) in an operation " +
        "the server ran for it: a browse, install, update check, update preview or update. Serving a fresh cached copy " +
        "is no new answer and changes neither field. null until a catalog was had once.",
    }),
    catalog_error: z
      .string()
      .nullable()
      .meta({
        description:
          "Why the latest fetch of the catalog failed (it could not be fetched, or is not a valid catalog); null once the " +
          "marketplace answers with a valid catalog again. Problems of single entries (a missing template, an invalid or " +
          "unreachable manifest) do not count.",
      }),
  })
  .meta({ id: "Source" });

const sourceUrl = z
  .string()
  .max(2048)
  .refine((u) => parseHttpUrl(u) !== null, "must be an absolute http or https URL")
  .meta({ description: "The marketplace: a folder (or repository) holding templates.json, or the URL of the templates.json itself." });
const authToken = z.string().min(1).max(8192);
const sourceDescription = z.string().max(1000);

export const CreateSourceRequest = z
  .strictObject({
    url: sourceUrl,
    alias: sourceName.optional().meta({ description: "Source name to use instead of the one derived from the URL." }),
    auth_token: authToken.optional().meta({ description: "Credential sent to the source's host." }),
    description: sourceDescription
      .optional()
      .meta({ description: "Free text kept with the source and returned as given; the catalog's own description never replaces it." }),
  })
  .meta({ id: "CreateSourceRequest", example: { url: "https://github.com/acme/bank-templates", alias: "acme" } });

export const UpdateSourceRequest = z
  .strictObject({
    url: sourceUrl.optional().meta({
      description:
        "A new location; the source keeps its name. On another scheme, host or port the stored token is dropped (it goes only to " +
        "the host it was given for) unless auth_token in the same request gives one.",
    }),
    description: sourceDescription.nullable().optional().meta({ description: "null clears it." }),
    auth_token: authToken
      .nullable()
      .optional()
      .meta({
        description:
          "Replaces the stored credential; null removes it. Absent: the stored one stays, unless url moves the source to another " +
          "scheme, host or port, which drops it.",
      }),
  })
  .meta({
    id: "UpdateSourceRequest",
    description:
      "Every field optional; `{}` changes nothing. The name never changes. A changed url or token drops the source's " +
      "cached catalog and resets its catalog status (catalog_fetched_at, catalog_error) to never fetched. A url on another " +
      "scheme, host or port drops the stored token unless auth_token is given too: a token goes only to its host.",
    example: { url: "https://github.com/acme/bank-templates/tree/main/templates", auth_token: null },
  });

export const sourceNameParams = z.object({ name: z.string() });

export const CatalogQuery = z.strictObject({
  source_scope: z.enum(["personal", "server"]).optional().meta({ description: "Which source of that name; default as for install." }),
  refresh: queryFlag("Revalidate the catalog with the marketplace (conditionally) instead of using a fresh cached copy."),
});

// A catalog entry has a template's id and details, as a template answers them.
const CatalogEntry = z
  .object({
    id: z.string(),
    ...detailsAnswerShape,
    manifest: z
      .record(z.string(), z.unknown())
      .nullable()
      .meta({ description: "The entry's manifest; null when it could not be fetched (see problem)." }),
    revision: z.string().nullable().meta({ description: "null when the entry has a problem." }),
    problem: NestedProblemSchema.nullable().meta({
      description:
        "Why the entry cannot be installed (its manifest could not be fetched, or is invalid); null for an entry that can be installed.",
    }),
    installed_as: z
      .array(z.string())
      .meta({ description: "Ids under which the caller (in this scope) installed this entry from this source." }),
    installed_as_server: z.array(z.string()).meta({
      description:
        "Ids of the server templates installed from this entry of this same source (its name, scope and owner, as " +
        "install recorded them), sorted. Under /me it tells a member what the server already has, apart from " +
        "their own installed_as; under /admin the caller's scope is the server's, so it equals installed_as.",
    }),
  })
  .meta({ id: "CatalogEntry" });

export const SourceCatalog = z
  .object({ source: Source, templates: z.array(CatalogEntry) })
  .meta({ id: "SourceCatalog", description: "A source's catalog, in the marketplace's order; every entry is listed." });
