import { z } from "zod";
import { type Access, defineEndpoint } from "@/lib/contracts/endpoint";
import { identityRoutes } from "./routes";
import {
  ApiKey,
  ChangePasswordRequest,
  ConsoleSessionList,
  CreateApiKeyRequest,
  CreatedApiKey,
  CreateServiceAccountRequest,
  CreateUserRequest,
  EndedSessions,
  keyIdParams,
  Me,
  ServiceAccount,
  serviceAccountParams,
  sessionIdParams,
  UpdateUserRequest,
  User,
  UserListQuery,
  userIdParams,
} from "./schemas";

/**
 * List, create and revoke API keys at `routes` (a user's own, a service account's, or any
 * user's for admins). `params` is absent for a path without parameters: Next hands such
 * route handlers no params object at all, which an empty params schema would refuse.
 */
function apiKeyEndpoints<P extends z.ZodObject<z.ZodRawShape> | undefined>(
  routes: (typeof identityRoutes)["myApiKeys"],
  access: Access,
  params: P,
  whose: string,
) {
  const tag = "API keys";
  const itemParams = params ? params.extend(keyIdParams.shape) : keyIdParams;
  return {
    list: defineEndpoint({
      ...routes.list,
      tag,
      access,
      status: 200,
      params,
      summary: `List ${whose} API keys (without tokens)`,
      response: z.array(ApiKey),
    }),
    create: defineEndpoint({
      ...routes.create,
      tag,
      access,
      status: 201,
      params,
      summary: `Create an API key for ${whose.replace(/'s?$/, "")}; the token is shown only in this answer`,
      body: CreateApiKeyRequest,
      response: CreatedApiKey,
      errors: [404, 409],
      audit: { action: "api_key.create", target: routes.revoke.path },
    }),
    revoke: defineEndpoint({
      ...routes.revoke,
      tag,
      access,
      status: 204,
      params: itemParams,
      summary: `Revoke one of ${whose} API keys`,
      errors: [404],
      audit: { action: "api_key.revoke" },
    }),
  };
}

export const identityEndpoints = {
  me: defineEndpoint({
    ...identityRoutes.me,
    tag: "Identity",
    access: "authenticated",
    status: 200,
    summary: "Who the caller is",
    response: Me,
  }),
  changePassword: defineEndpoint({
    ...identityRoutes.changePassword,
    tag: "Identity",
    access: "user",
    status: 204,
    summary: "Change the caller's console password; ends the caller's other console sessions",
    body: ChangePasswordRequest,
    errors: [409],
    audit: { action: "user.password.change" },
  }),
  myApiKeys: apiKeyEndpoints(identityRoutes.myApiKeys, "user", undefined, "the caller's"),
  // A user's console sessions; an API key may manage them too (its "current" is none).
  mySessions: {
    list: defineEndpoint({
      ...identityRoutes.mySessions.list,
      tag: "Sessions",
      access: "user",
      status: 200,
      summary: "List the caller's live console sessions, the newest first",
      response: ConsoleSessionList,
    }),
    end: defineEndpoint({
      ...identityRoutes.mySessions.end,
      tag: "Sessions",
      access: "user",
      status: 204,
      summary: "End one of the caller's console sessions; it is refused from its next request on",
      params: sessionIdParams,
      errors: [404],
      audit: { action: "session.revoke" },
    }),
    endOthers: defineEndpoint({
      ...identityRoutes.mySessions.endOthers,
      tag: "Sessions",
      access: "user",
      status: 200,
      summary: "End every console session of the caller but the one asking (all of them, with an API key)",
      response: EndedSessions,
      audit: {
        action: "session.revoke",
        target: `${identityRoutes.mySessions.list.path}/{session_id}`,
        perTarget: (answer) => (answer as { ended: number }).ended,
      },
    }),
  },
  serviceAccounts: {
    list: defineEndpoint({
      ...identityRoutes.serviceAccounts.list,
      tag: "Service accounts",
      access: "user",
      status: 200,
      summary: "List the caller's service accounts",
      response: z.array(ServiceAccount),
    }),
    create: defineEndpoint({
      ...identityRoutes.serviceAccounts.create,
      tag: "Service accounts",
      access: "user",
      status: 201,
      summary: "Create a service account acting for the caller",
      body: CreateServiceAccountRequest,
      response: ServiceAccount,
      errors: [404, 409],
      audit: { action: "service_account.create", target: `${identityRoutes.serviceAccounts.list.path}/{id}` },
    }),
    remove: defineEndpoint({
      ...identityRoutes.serviceAccounts.remove,
      tag: "Service accounts",
      access: "user",
      status: 204,
      summary: "Delete a service account and its keys",
      params: serviceAccountParams,
      errors: [404],
      audit: { action: "service_account.delete" },
    }),
  },
  serviceAccountApiKeys: apiKeyEndpoints(identityRoutes.serviceAccountApiKeys, "user", serviceAccountParams, "a service account's"),
  users: {
    list: defineEndpoint({
      ...identityRoutes.users.list,
      tag: "Users",
      access: "admin",
      status: 200,
      summary: "List users; with keys_expiring_within_days, those whose API keys expire soon",
      query: UserListQuery,
      response: z.array(User),
    }),
    create: defineEndpoint({
      ...identityRoutes.users.create,
      tag: "Users",
      access: "admin",
      status: 201,
      summary: "Create a user",
      body: CreateUserRequest,
      response: User,
      errors: [409],
      audit: { action: "user.create", target: `${identityRoutes.users.list.path}/{id}` },
    }),
    get: defineEndpoint({
      ...identityRoutes.users.get,
      tag: "Users",
      access: "admin",
      status: 200,
      summary: "Read a user",
      params: userIdParams,
      response: User,
      errors: [404],
    }),
    update: defineEndpoint({
      ...identityRoutes.users.update,
      tag: "Users",
      access: "admin",
      status: 200,
      summary: "Change a user's name, email, role, activation or password",
      params: userIdParams,
      body: UpdateUserRequest,
      response: User,
      errors: [404, 409],
      audit: { action: "user.update" },
    }),
    remove: defineEndpoint({
      ...identityRoutes.users.remove,
      tag: "Users",
      access: "admin",
      status: 204,
      summary: "Delete a user with its keys, service accounts, sources and templates",
      params: userIdParams,
      errors: [404, 409],
      audit: { action: "user.delete" },
    }),
  },
  userApiKeys: apiKeyEndpoints(identityRoutes.userApiKeys, "admin", userIdParams, "a user's"),
};
