import { endpoints } from "../endpoints";
import { useEndpointMutation, useEndpointQuery } from "../query";

const { identity } = endpoints;

/** Who the console's session is, as the API sees it. */
export function useMe() {
  return useEndpointQuery(identity.me, undefined);
}

// The caller's service accounts.

export function useServiceAccounts() {
  return useEndpointQuery(identity.serviceAccounts.list, undefined);
}

/**
 * One service account as it is now, while `id` is set (a delete's dialog): its ETag is the
 * version the delete is confirmed against (list rows carry none).
 */
export function useServiceAccount(id: string | null) {
  return useEndpointQuery(identity.serviceAccounts.get, { params: { sa_id: id ?? "" } }, { enabled: id !== null, staleTime: 0 });
}

export function useCreateServiceAccount() {
  return useEndpointMutation(identity.serviceAccounts.create, { invalidates: [identity.serviceAccounts.list] });
}

export function useRemoveServiceAccount() {
  return useEndpointMutation(identity.serviceAccounts.remove, { invalidates: [identity.serviceAccounts.list] });
}

// Users (admins only).

export function useUsers() {
  return useEndpointQuery(identity.users.list, undefined);
}

/** Users with one of their own API keys expiring within `days`, each with its first expiry (one request). */
export function useUsersWithKeysExpiring(days: number, { enabled = true } = {}) {
  return useEndpointQuery(identity.users.list, { query: { keys_expiring_within_days: days } }, { enabled });
}

/** One user as it is now, while `id` is set (an edit's or a delete's dialog): its ETag is the version written against. */
export function useUser(id: string | null) {
  return useEndpointQuery(identity.users.get, { params: { user_id: id ?? "" } }, { enabled: id !== null, staleTime: 0 });
}

export function useCreateUser() {
  return useEndpointMutation(identity.users.create, { invalidates: [identity.users.list] });
}

export function useUpdateUser() {
  return useEndpointMutation(identity.users.update, { invalidates: [identity.users.list, identity.users.get] });
}

export function useRemoveUser() {
  return useEndpointMutation(identity.users.remove, { invalidates: [identity.users.list] });
}

/** Unlinks a user's single-sign-on account. */
export function useUnlinkSso() {
  return useEndpointMutation(identity.users.unlinkSso, { invalidates: [identity.users.list, identity.users.get] });
}

// The caller's own password.

/** Changes the caller's password; the server ends their other console sessions. */
export function useChangePassword() {
  return useEndpointMutation(identity.changePassword, { invalidates: [] });
}

// The caller's console sessions (Account page).

export function useMySessions() {
  return useEndpointQuery(identity.mySessions.list, undefined);
}

export function useEndSession() {
  return useEndpointMutation(identity.mySessions.end, { invalidates: [identity.mySessions.list] });
}

export function useSignOutOtherSessions() {
  return useEndpointMutation(identity.mySessions.endOthers, { invalidates: [identity.mySessions.list] });
}
