import { z } from "zod";
import { timestamp } from "@/lib/api/fields";
import { CatalogEntry } from "@/lib/templates/schemas";
import { parseHttpUrl, SOURCE_NAME_PATTERN, SOURCE_NAME_RULE } from "./names";

export const sourceName = z.string().regex(SOURCE_NAME_PATTERN, SOURCE_NAME_RULE);

export const Source = z
  .object({
    name: z.string(),
    url: z.string(),
    scope: z.enum(["personal", "server"]),
    owner: z.string().nullable().meta({ description: "user_id of a personal source's owner; null for server sources." }),
    has_auth: z.boolean().meta({ description: "Whether an auth token is stored. The token is never returned." }),
    description: z.string().nullable(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: "Source" });

export const CreateSourceRequest = z
  .strictObject({
    url: z
      .string()
      .max(2048)
      .refine((u) => parseHttpUrl(u) !== null, "must be an absolute http or https URL"),
    alias: sourceName.optional().meta({ description: "Source name to use instead of the one derived from the URL." }),
    auth_token: z.string().min(1).max(8192).optional().meta({ description: "Credential sent to the source's host." }),
  })
  .meta({ id: "CreateSourceRequest" });

export const sourceNameParams = z.object({ name: z.string() });

export const CatalogQuery = z.strictObject({
  source_scope: z.enum(["personal", "server"]).optional().meta({ description: "Which source of that name; default as for install." }),
});

export const SourceCatalog = z
  .object({ source: Source, templates: z.array(CatalogEntry) })
  .meta({ id: "SourceCatalog", description: "A source's catalog, in the marketplace's order." });
