import { z } from "zod";
import { defineEndpoint, type Access } from "@/lib/http/endpoint";
import {
  ApiKey,
  ChangePasswordRequest,
  CreateApiKeyRequest,
  CreatedApiKey,
  CreateServiceAccountRequest,
  CreateUserRequest,
  keyIdParams,
  Me,
  ServiceAccount,
  serviceAccountParams,
  UpdateUserRequest,
  User,
  userIdParams,
} from "./schemas";

/**
 * List, create and revoke API keys under `base` (a user's own, a service account's, or any
 * user's for admins). `params` is absent for a path without parameters: Next hands such
 * routes no params object at all, which an empty params schema would refuse.
 */
function apiKeyEndpoints<P extends z.ZodObject<z.ZodRawShape> | undefined>(base: string, access: Access, params: P, whose: string) {
  const tag = "API keys";
  const itemParams = params ? params.extend(keyIdParams.shape) : keyIdParams;
  return {
    list: defineEndpoint({
      method: "GET", path: base, tag, access, status: 200, params,
      summary: `List ${whose} API keys (without tokens)`, response: z.array(ApiKey),
    }),
    create: defineEndpoint({
      method: "POST", path: base, tag, access, status: 201, params,
      summary: `Create an API key for ${whose.replace(/'s?$/, "")}; the token is shown only in this answer`,
      body: CreateApiKeyRequest, response: CreatedApiKey, errors: [404],
      audit: { action: "api_key.create", target: `${base}/{key_id}` },
    }),
    revoke: defineEndpoint({
      method: "DELETE", path: `${base}/{key_id}`, tag, access, status: 204, params: itemParams,
      summary: `Revoke one of ${whose} API keys`, errors: [404], audit: { action: "api_key.revoke" },
    }),
  };
}

export const identityEndpoints = {
  me: defineEndpoint({
    method: "GET", path: "/ext/svc/me", tag: "Identity", access: "principal", status: 200,
    summary: "Who the caller is", response: Me,
  }),
  changePassword: defineEndpoint({
    method: "POST", path: "/ext/svc/me/password", tag: "Identity", access: "user", status: 204,
    summary: "Change the caller's console password; ends the caller's other console sessions",
    body: ChangePasswordRequest, errors: [409], audit: { action: "user.password.change" },
  }),
  myApiKeys: apiKeyEndpoints("/ext/svc/me/api-keys", "user", undefined, "the caller's"),
  serviceAccounts: {
    list: defineEndpoint({
      method: "GET", path: "/ext/svc/me/service-accounts", tag: "Service accounts", access: "user", status: 200,
      summary: "List the caller's service accounts", response: z.array(ServiceAccount),
    }),
    create: defineEndpoint({
      method: "POST", path: "/ext/svc/me/service-accounts", tag: "Service accounts", access: "user", status: 201,
      summary: "Create a service account acting for the caller", body: CreateServiceAccountRequest, response: ServiceAccount,
      errors: [404, 409], audit: { action: "service_account.create", target: "/ext/svc/me/service-accounts/{id}" },
    }),
    remove: defineEndpoint({
      method: "DELETE", path: "/ext/svc/me/service-accounts/{sa_id}", tag: "Service accounts", access: "user", status: 204,
      summary: "Delete a service account and its keys", params: serviceAccountParams, errors: [404],
      audit: { action: "service_account.delete" },
    }),
  },
  serviceAccountApiKeys: apiKeyEndpoints(
    "/ext/svc/me/service-accounts/{sa_id}/api-keys", "user", serviceAccountParams, "a service account's",
  ),
  users: {
    list: defineEndpoint({
      method: "GET", path: "/ext/svc/admin/users", tag: "Users", access: "admin", status: 200,
      summary: "List users", response: z.array(User),
    }),
    create: defineEndpoint({
      method: "POST", path: "/ext/svc/admin/users", tag: "Users", access: "admin", status: 201,
      summary: "Create a user", body: CreateUserRequest, response: User, errors: [409],
      audit: { action: "user.create", target: "/ext/svc/admin/users/{id}" },
    }),
    get: defineEndpoint({
      method: "GET", path: "/ext/svc/admin/users/{user_id}", tag: "Users", access: "admin", status: 200,
      summary: "Read a user", params: userIdParams, response: User, errors: [404],
    }),
    update: defineEndpoint({
      method: "PATCH", path: "/ext/svc/admin/users/{user_id}", tag: "Users", access: "admin", status: 200,
      summary: "Change a user's name, email, role, activation or password", params: userIdParams,
      body: UpdateUserRequest, response: User, errors: [404, 409], audit: { action: "user.update" },
    }),
    remove: defineEndpoint({
      method: "DELETE", path: "/ext/svc/admin/users/{user_id}", tag: "Users", access: "admin", status: 204,
      summary: "Delete a user with its keys, service accounts, sources and templates", params: userIdParams,
      errors: [404, 409], audit: { action: "user.delete" },
    }),
  },
  userApiKeys: apiKeyEndpoints("/ext/svc/admin/users/{user_id}/api-keys", "admin", userIdParams, "a user's"),
};
