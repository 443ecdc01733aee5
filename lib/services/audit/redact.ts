import type { AuditTargetType } from "@/lib/contracts/audit-actions";

/**
 * Every secret a resource's answer (or a write's input) can hold, by the kind of resource:
 * the one list audit entries are cleaned with (CONTRACT §17). A new secret field goes here;
 * tests/audit-writes.test.ts scans every entry it makes for the secrets it used.
 */
const SECRET_FIELDS: Record<AuditTargetType, readonly string[]> = {
  source: ["token"],
  api_key: ["key", "token"],
  user: ["password", "current_password", "new_password"],
  service_account: [],
  session: ["token"],
  template: [],
  bank: [],
  policy: [],
  webhook: ["secret"],
};

/** `value` (a resource as the API answers it, or a list of them) without its secret fields. */
export function withoutSecrets(type: AuditTargetType, value: unknown): unknown {
  const secrets = SECRET_FIELDS[type];
  if (value === null || value === undefined || secrets.length === 0) return value ?? null;
  if (Array.isArray(value)) return value.map((item) => withoutSecrets(type, item));
  if (typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => !secrets.includes(key)));
}
