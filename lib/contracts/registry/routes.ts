import { auditRoutes } from "@/lib/contracts/audit/routes";
import { bankRoutes } from "@/lib/contracts/banks/routes";
import { identityRoutes } from "@/lib/contracts/identity/routes";
import { policyRoutes } from "@/lib/contracts/policy/routes";
import { availableSourceRoutes, sourceRoutesByScope } from "@/lib/contracts/sources/routes";
import { lifecycleRoutesByScope, manifestRoutes, templateRoutesByScope, usableTemplateRoutes } from "@/lib/contracts/templates/routes";
import { webhookRoutesByScope } from "@/lib/contracts/webhooks/routes";

/**
 * Every endpoint's method and path, zod-free, grouped as the contracts in
 * lib/contracts/registry/endpoints.ts (which spread these): what the console's browser code imports.
 */
export const routes = {
  identity: identityRoutes,
  sources: sourceRoutesByScope,
  availableSources: availableSourceRoutes,
  templates: templateRoutesByScope,
  templateLifecycle: lifecycleRoutesByScope,
  usableTemplates: usableTemplateRoutes,
  manifests: manifestRoutes,
  policy: policyRoutes,
  banks: bankRoutes,
  audit: auditRoutes,
  webhooks: webhookRoutesByScope,
};
