import { z } from "zod";
import { actorId, role, timestamp } from "@/lib/contracts/fields";
import { shownOnce } from "@/lib/contracts/shown-once";

export const Me = z
  .object({
    user_id: z.string(),
    principal_type: z.enum(["user", "service_account"]),
    principal_id: z.string(),
    role,
    display_name: z.string(),
  })
  .meta({ id: "Me" });

/** What a key may do (CONTRACT §18): `write` everything its principal may, `read` only GET. */
const apiKeyScope = z.enum(["write", "read"]).meta({
  id: "ApiKeyScope",
  description: "`write` (the default): all its principal may do; `read`: GET (and HEAD) only, anything else answers 403 `key-read-only`.",
});
export type ApiKeyScope = z.infer<typeof apiKeyScope>;

/** The longest lifetime a key may be given; without one it never expires. */
const MAX_API_KEY_LIFETIME_DAYS = 365;

export const ApiKey = z
  .object({
    id: z.string(),
    prefix: z.string().meta({ description: "The first characters of the token, to recognise it." }),
    description: z.string().nullable(),
    scope: apiKeyScope,
    expires_at: timestamp.nullable().meta({ description: "When the key stops working (401 `key-expired`); null: never." }),
    created_at: timestamp,
    last_used_at: timestamp.nullable(),
  })
  .meta({ id: "ApiKey" });

export const CreatedApiKey = ApiKey.extend({
  token: shownOnce(
    "The key itself; only its hash is stored.",
    "A null token means the key was made but its token cannot be shown again: revoke the key if its token was not stored, and create a new one.",
  ),
}).meta({ id: "CreatedApiKey" });

export const CreateApiKeyRequest = z
  .strictObject({
    description: z.string().max(200).nullish(),
    expires_in_days: z
      .number()
      .int()
      .min(1)
      .max(MAX_API_KEY_LIFETIME_DAYS)
      .nullish()
      .meta({ description: `Days until the key expires (1-${MAX_API_KEY_LIFETIME_DAYS}); absent or null: it never expires.` }),
    scope: apiKeyScope.optional(),
  })
  .meta({ id: "CreateApiKeyRequest", example: { description: "CI deploy job", expires_in_days: 90, scope: "read" } });

export const ServiceAccount = z
  .object({
    id: z.string(),
    owner_user_id: z.string(),
    display_name: z.string(),
    role,
    is_active: z.boolean(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: "ServiceAccount" });

export const CreateServiceAccountRequest = z
  .strictObject({ id: actorId, display_name: z.string().min(1).max(200).optional(), role: role.optional() })
  .meta({ id: "CreateServiceAccountRequest", example: { id: "deploy-bot", display_name: "Deploy bot", role: "member" } });

/** A user's link to an account at the single-sign-on provider (README, "Single sign-on"). */
const SsoIdentity = z
  .object({
    issuer: z.string().meta({ description: "The provider (its `iss`)." }),
    subject: z.string().meta({ description: "The account at the provider (its `sub`), by which the user is found at every sign-in." }),
    email: z.string().nullable().meta({ description: "The email the provider gave at the latest sign-in." }),
    linked_at: timestamp,
    last_sign_in_at: timestamp,
  })
  .meta({ id: "SsoIdentity" });

export const User = z
  .object({
    id: z.string(),
    display_name: z.string(),
    email: z.string().nullable(),
    role,
    is_active: z.boolean(),
    has_password: z.boolean(),
    sso_identity: SsoIdentity.nullable().meta({
      description: "The single-sign-on account linked to the user (made at their first sign-in with it); null: none.",
    }),
    last_sign_in_at: timestamp
      .nullable()
      .meta({ description: "The user's latest console sign-in, with a password or single sign-on; null: never." }),
    created_at: timestamp,
    updated_at: timestamp,
    next_key_expires_at: timestamp.optional().meta({
      description:
        "Only with `?keys_expiring_within_days`: when the first of the user's own API keys that expires within that window stops working.",
    }),
  })
  .meta({ id: "User" });

/** How far ahead the users list may look for keys about to expire: a key's longest lifetime. */
export const UserListQuery = z.strictObject({
  keys_expiring_within_days: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_API_KEY_LIFETIME_DAYS)
    .optional()
    .meta({
      description:
        "Only users with one of their own API keys that still works and expires within this many days (1-365), each with " +
        "`next_key_expires_at`: a console's \"keys expiring soon\" in one request. Service accounts' keys do not count.",
    }),
});

const password = z.string().min(8, "must be at least 8 characters").max(1024);
const email = z.email().max(320);

export const CreateUserRequest = z
  .strictObject({
    id: actorId,
    display_name: z.string().min(1).max(200).optional(),
    email: email.nullish(),
    role: role.optional(),
    password: password.optional(),
  })
  .meta({ id: "CreateUserRequest", example: { id: "alice", display_name: "Alice", email: "alice@example.com", role: "member" } });

export const UpdateUserRequest = z
  .strictObject({
    display_name: z.string().min(1).max(200).optional(),
    email: email.nullable().optional(),
    role: role.optional(),
    is_active: z.boolean().optional(),
    password: password.nullable().optional(),
  })
  .meta({ id: "UpdateUserRequest", example: { role: "admin", is_active: true } });

export const ChangePasswordRequest = z
  .strictObject({
    // Bounded like every stored password, so verifying it costs what a sign-in costs.
    current_password: z.string().max(1024),
    new_password: z.string().min(12, "must be at least 12 characters").max(512, "must be at most 512 characters"),
  })
  .meta({ id: "ChangePasswordRequest", example: { current_password: "old secret words", new_password: "a longer new passphrase" } });

const ConsoleSession = z
  .object({
    id: z.string().meta({ description: "The session's public name; not its token, and it grants nothing." }),
    created_at: timestamp.meta({ description: "When the user signed in." }),
    last_seen_at: timestamp.meta({ description: "When the session was last used, to the minute." }),
    browser: z.string().nullable().meta({ description: 'The browser it was started in, as a short label ("Firefox on Linux").' }),
    current: z.boolean().meta({ description: "Whether this is the session making the request (never, with an API key)." }),
  })
  .meta({ id: "ConsoleSession" });

export const ConsoleSessionList = z.object({ sessions: z.array(ConsoleSession) }).meta({ id: "ConsoleSessionList" });

export const EndedSessions = z
  .object({ ended: z.int().nonnegative().meta({ description: "How many sessions ended." }) })
  .meta({ id: "EndedSessions", example: { ended: 2 } });

export const sessionIdParams = z.object({ session_id: z.string() });

export const userIdParams = z.object({ user_id: z.string() });
export const keyIdParams = z.object({ key_id: z.string() });
export const serviceAccountParams = z.object({ sa_id: z.string() });
