import { auditEndpoints } from "@/lib/contracts/audit/endpoints";
import { bankEndpoints } from "@/lib/contracts/banks/endpoints";
import type { Endpoint } from "@/lib/contracts/endpoint";
import { identityEndpoints } from "@/lib/contracts/identity/endpoints";
import { policyEndpoints } from "@/lib/contracts/policy/endpoints";
import { availableSourceEndpoints, sourceEndpointsByScope } from "@/lib/contracts/sources/endpoints";
import { manifestEndpoints, templateEndpointsByScope } from "@/lib/contracts/templates/endpoints";
import { lifecycleEndpointsByScope, usableTemplateEndpoints } from "@/lib/contracts/templates/lifecycle-endpoints";
import { webhookEndpointsByScope } from "@/lib/contracts/webhooks/endpoints";

/** Every endpoint contract, gathered for the OpenAPI document and the console client. */
export const endpoints = {
  identity: identityEndpoints,
  sources: sourceEndpointsByScope,
  availableSources: availableSourceEndpoints,
  templates: templateEndpointsByScope,
  templateLifecycle: lifecycleEndpointsByScope,
  usableTemplates: usableTemplateEndpoints,
  manifests: manifestEndpoints,
  policy: policyEndpoints,
  banks: bankEndpoints,
  audit: auditEndpoints,
  webhooks: webhookEndpointsByScope,
};

function isEndpoint(value: unknown): value is Endpoint {
  return typeof value === "object" && value !== null && "method" in value && "path" in value && "access" in value;
}

/** The endpoints as a flat list, found by walking the groups above. */
export function listEndpoints(group: unknown = endpoints): Endpoint[] {
  if (isEndpoint(group)) return [group];
  if (typeof group !== "object" || group === null) return [];
  return Object.values(group).flatMap((child) => listEndpoints(child));
}
