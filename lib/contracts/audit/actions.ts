// No imports: the console's audit page takes its action filter from here without the contracts.

/** Every action the audit log records, as the write endpoints declare them (tests/audit-log.test.ts keeps the two equal). */
export const AUDIT_ACTIONS = [
  "api_key.create",
  "api_key.revoke",
  "bank.delete",
  "bank.import",
  "bank.policy.delete",
  "bank.policy.put",
  "service_account.create",
  "service_account.delete",
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
  "user.create",
  "user.delete",
  "user.password.change",
  "user.update",
] as const;
