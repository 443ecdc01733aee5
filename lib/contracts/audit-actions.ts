// No imports: the console's audit page takes its filters from here without the contracts.

/**
 * Every action the write endpoints declare (tests/audit-log.test.ts keeps the two equal). An
 * endpoint's audit declaration and the entry its service records are typed by this list
 * (EndpointAuditAction), so an action missing here, or misspelt there, does not compile.
 */
const ENDPOINT_ACTIONS = [
  "api_key.create",
  "api_key.revoke",
  "bank.delete",
  "bank.directive.delete",
  "bank.directive.put",
  "bank.import",
  "bank.mental_model.delete",
  "bank.mental_model.put",
  "bank.patch",
  "bank.policy.delete",
  "bank.policy.put",
  "bank.policy.restore",
  "bank.restore",
  "service_account.create",
  "service_account.delete",
  "session.revoke",
  "template.check_updates",
  "template.create",
  "template.delete",
  "template.install",
  "template.patch",
  "template.rollback",
  "template.update",
  "template.update_all",
  "template_source.create",
  "template_source.delete",
  "template_source.update",
  "user.create",
  "user.delete",
  "user.password.change",
  "user.sso.unlink",
  "user.update",
  "webhook.create",
  "webhook.delete",
  "webhook.ping",
  "webhook.redeliver",
  "webhook.rotate_secret",
  "webhook.update",
] as const;

/** The actions recorded outside the endpoints: console sign-in and sign-out (lib/auth, CONTRACT §17). */
export const SESSION_ACTIONS = ["session.sign-in", "session.sign-out"] as const;

/**
 * The actions a single sign-on records (lib/services/identity/sso.ts), actor the user signing in:
 * a user created at their first sign-in, an account linked to a user, a role set by the provider's groups.
 */
export const SSO_ACTIONS = ["user.sso.create", "user.sso.link", "user.sso.role"] as const;

/** Every action the audit log records. */
export const AUDIT_ACTIONS = [...ENDPOINT_ACTIONS, ...SESSION_ACTIONS, ...SSO_ACTIONS] as const;

/** An action the audit log records. */
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** An action a write endpoint declares (`audit: { action }`) and its service records (`tx.audit.record`). */
export type EndpointAuditAction = (typeof ENDPOINT_ACTIONS)[number];

/** A console sign-in's or sign-out's action. */
export type SessionAuditAction = (typeof SESSION_ACTIONS)[number];

/** What a single sign-on did to a user. */
export type SsoAuditAction = (typeof SSO_ACTIONS)[number];

/** What an entry can be about (CONTRACT §17): `target_type`. */
export const AUDIT_TARGET_TYPES = [
  "source",
  "template",
  "bank",
  "policy",
  "user",
  "api_key",
  "service_account",
  "session",
  "webhook",
] as const;

export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];
