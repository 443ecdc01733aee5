/** Console URLs of a bank's pages; bank ids may hold ':' and '.', so the id is encoded. */
export const bankHref = (bankId: string) => `/banks/${encodeURIComponent(bankId)}`;
export const bankPolicyHref = (bankId: string) => `${bankHref(bankId)}/policy`;
/** The policy page on its History tab (`?tab=history`). */
export const policyHistoryHref = (bankId: string) => `${bankPolicyHref(bankId)}?tab=history`;
/** The new-bank form with a template already chosen (`server/support-bot`). */
export const newBankFromTemplateHref = (scope: "personal" | "server", templateId: string) =>
  `/banks/new?${new URLSearchParams({ template: `${scope}/${templateId}` })}`;
