/** The server's words for a host its SSRF rules refuse name the setting (lib/platform/address.ts). */
const ALLOWED_HOSTS_SETTING = "MARKETPLACE_ALLOWED_HOSTS";

/** For a failure that is the server refusing the marketplace's address: what would allow it. */
export function allowedHostsHint(reason: string): string | null {
  if (!reason.includes(ALLOWED_HOSTS_SETTING)) return null;
  return `The server refuses marketplaces on private or local networks; an administrator can allow its host by adding it to ${ALLOWED_HOSTS_SETTING}.`;
}
