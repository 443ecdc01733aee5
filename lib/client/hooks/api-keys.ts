import type { ApiKeyScope } from "@/lib/contracts/identity/schemas";
import { endpoints } from "../endpoints";
import { useEndpointMutation, useEndpointQuery } from "../query";

const { identity } = endpoints;

/** Whose API keys: the signed-in user's, one of their service accounts', or any user's (admins). */
export type KeyOwnerRef = { kind: "self" } | { kind: "serviceAccount"; saId: string } | { kind: "user"; userId: string };

/** The endpoints and path params of one owner's keys; the three families share their shape. */
function family(owner: KeyOwnerRef) {
  switch (owner.kind) {
    case "self":
      return { endpoints: identity.myApiKeys, params: {} };
    case "serviceAccount":
      return { endpoints: identity.serviceAccountApiKeys, params: { sa_id: owner.saId } };
    case "user":
      return { endpoints: identity.userApiKeys, params: { user_id: owner.userId } };
  }
}

// The three families differ only in params, which `family` pairs with the right endpoints;
// the casts below let one set of hooks serve them all.
type AnyKeyEndpoints = typeof identity.userApiKeys;

export function useApiKeys(owner: KeyOwnerRef) {
  const f = family(owner);
  return useEndpointQuery((f.endpoints as AnyKeyEndpoints).list, { params: f.params as { user_id: string } });
}

export function useCreateApiKey(owner: KeyOwnerRef) {
  const f = family(owner);
  const e = f.endpoints as AnyKeyEndpoints;
  const mutation = useEndpointMutation(e.create, { invalidates: [e.list] });
  return {
    ...mutation,
    create: (body: { description: string | null; expires_in_days: number | null; scope: ApiKeyScope }) =>
      mutation.mutateAsync({ params: f.params as { user_id: string }, body }),
  };
}

export function useRevokeApiKey(owner: KeyOwnerRef) {
  const f = family(owner);
  const e = f.endpoints as AnyKeyEndpoints;
  const mutation = useEndpointMutation(e.revoke, { invalidates: [e.list] });
  return {
    ...mutation,
    revoke: (keyId: string) => mutation.mutateAsync({ params: { ...(f.params as { user_id: string }), key_id: keyId } }),
  };
}
