import type { identityEndpoints } from "@/lib/contracts/identity/endpoints";
import { handle, type RequestContext, route } from "@/lib/http/route";
import { createApiKey, deleteApiKey, type KeyOwner, listApiKeys } from "@/lib/services/identity/api-keys";
import { assertOwnServiceAccount } from "@/lib/services/identity/service-accounts";
import { getUser } from "@/lib/services/identity/users";

type KeyEndpoints = (typeof identityEndpoints)["myApiKeys" | "serviceAccountApiKeys" | "userApiKeys"];
type OwnerResolver = (ctx: RequestContext, params: Record<string, string>) => Promise<KeyOwner>;

/** Whose keys each family of key paths manages; each resolver 404s on a foreign or missing owner. */
export const keyOwners = {
  self: async (ctx) => ({ userId: ctx.actor.userId, serviceAccountId: null }),
  serviceAccount: async (ctx, params) => {
    await assertOwnServiceAccount(ctx, { id: params.sa_id! });
    return { userId: ctx.actor.userId, serviceAccountId: params.sa_id! };
  },
  anyUser: async (ctx, params) => {
    await getUser(ctx, { id: params.user_id! });
    return { userId: params.user_id!, serviceAccountId: null };
  },
} satisfies Record<string, OwnerResolver>;

const asRecord = (params: unknown) => (params ?? {}) as Record<string, string>;

/** The key collection route (GET list, POST create) for one family of key paths. */
export function apiKeyCollectionRoute(endpoints: KeyEndpoints, ownerOf: OwnerResolver) {
  return route({
    GET: handle(endpoints.list, async ({ ctx, params }) => listApiKeys(ctx, { owner: await ownerOf(ctx, asRecord(params)) })),
    POST: handle(endpoints.create, async ({ ctx, params, body }) =>
      createApiKey(ctx, {
        owner: await ownerOf(ctx, asRecord(params)),
        description: body.description ?? null,
        scope: body.scope,
        expiresInDays: body.expires_in_days ?? null,
      }),
    ),
  });
}

/** The key item route (DELETE revokes) for one family of key paths. */
export function apiKeyItemRoute(endpoints: KeyEndpoints, ownerOf: OwnerResolver) {
  return route({
    DELETE: handle(endpoints.revoke, async ({ ctx, params }) => {
      const p = asRecord(params);
      await deleteApiKey(ctx, { owner: await ownerOf(ctx, p), keyId: p.key_id! });
    }),
  });
}
