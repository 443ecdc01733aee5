import { z } from "zod";
import { defineEndpoint } from "@/lib/contracts/endpoint";
import type { ScopeKind } from "@/lib/contracts/scope";
import { availableSourceRoutes, sourceRoutesByScope } from "./routes";
import { CatalogQuery, CreateSourceRequest, Source, SourceCatalog, sourceNameParams, UpdateSourceRequest } from "./schemas";

/** The template-source endpoints of one scope; `/me` and `/admin` differ only in route and access. */
function sourceEndpoints(kind: ScopeKind) {
  const routes = sourceRoutesByScope[kind];
  const access = kind === "personal" ? "authenticated" : "admin";
  const which = kind === "personal" ? "the caller's personal" : "server";
  const tag = "Template sources";
  return {
    list: defineEndpoint({
      ...routes.list,
      tag,
      access,
      status: 200,
      summary: `List ${which} template sources, sorted by name`,
      response: z.array(Source),
    }),
    create: defineEndpoint({
      ...routes.create,
      tag,
      access,
      status: 201,
      summary: `Register a ${kind} template source`,
      body: CreateSourceRequest,
      response: Source,
      errors: [409, 422],
      audit: { action: "template_source.create", target: routes.remove.path },
    }),
    get: defineEndpoint({
      ...routes.get,
      tag,
      access,
      status: 200,
      summary: `Read one ${kind} template source`,
      params: sourceNameParams,
      response: Source,
      errors: [404],
    }),
    update: defineEndpoint({
      ...routes.update,
      tag,
      access,
      status: 200,
      summary: `Change a ${kind} template source's url, description or token; its name stays`,
      params: sourceNameParams,
      body: UpdateSourceRequest,
      response: Source,
      errors: [404, 422],
      audit: { action: "template_source.update" },
      conditional: "if-match",
    }),
    remove: defineEndpoint({
      ...routes.remove,
      tag,
      access,
      status: 204,
      summary: `Remove a ${kind} template source`,
      params: sourceNameParams,
      errors: [404],
      audit: { action: "template_source.delete" },
      conditional: "if-match",
    }),
    catalog: defineEndpoint({
      ...routes.catalog,
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
    ...availableSourceRoutes.list,
    tag: "Template sources",
    access: "authenticated",
    status: 200,
    summary: "List every source the caller can install from: their personal sources and the server's (by name, then scope)",
    response: z.array(Source),
  }),
};

export const sourceEndpointsByScope = {
  personal: sourceEndpoints("personal"),
  server: sourceEndpoints("server"),
} as const;
