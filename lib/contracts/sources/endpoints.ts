import { z } from "zod";
import { defineEndpoint } from "@/lib/contracts/endpoint";
import { type ScopeKind, scopePrefix } from "@/lib/contracts/scope";
import { CatalogQuery, CreateSourceRequest, Source, SourceCatalog, sourceNameParams } from "./schemas";

/** The template-source endpoints of one scope; `/me` and `/admin` differ only in path and access. */
function sourceEndpoints(kind: ScopeKind) {
  const base = `${scopePrefix(kind)}/template-sources`;
  const access = kind === "personal" ? "principal" : "admin";
  const which = kind === "personal" ? "the caller's personal" : "server";
  const tag = "Template sources";
  return {
    list: defineEndpoint({
      method: "GET",
      path: base,
      tag,
      access,
      status: 200,
      summary: `List ${which} template sources, sorted by name`,
      response: z.array(Source),
    }),
    create: defineEndpoint({
      method: "POST",
      path: base,
      tag,
      access,
      status: 201,
      summary: `Register a ${kind} template source`,
      body: CreateSourceRequest,
      response: Source,
      errors: [409, 422],
      audit: { action: "template_source.create", target: `${base}/{name}` },
    }),
    remove: defineEndpoint({
      method: "DELETE",
      path: `${base}/{name}`,
      tag,
      access,
      status: 204,
      summary: `Remove a ${kind} template source`,
      params: sourceNameParams,
      errors: [404],
      audit: { action: "template_source.delete" },
    }),
    catalog: defineEndpoint({
      method: "GET",
      path: `${base}/{name}/catalog`,
      tag,
      access,
      status: 200,
      summary:
        kind === "personal"
          ? "Browse a source's catalog: the caller's personal source of that name, else the server's"
          : "Browse a server source's catalog",
      params: sourceNameParams,
      query: CatalogQuery,
      response: SourceCatalog,
      errors: [404, 502, 504],
    }),
  };
}

export const availableSourceEndpoints = {
  list: defineEndpoint({
    method: "GET",
    path: "/ext/svc/template-sources",
    tag: "Template sources",
    access: "principal",
    status: 200,
    summary: "List every source the caller can install from: their personal sources and the server's (by name, then scope)",
    response: z.array(Source),
  }),
};

export const sourceEndpointsByScope = {
  personal: sourceEndpoints("personal"),
  server: sourceEndpoints("server"),
} as const;
