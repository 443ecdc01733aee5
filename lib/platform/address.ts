import "server-only";
import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";

/** Resolves a host name to every address it has (CONTRACT §6 checks them all). */
export type ResolveHost = (hostname: string) => Promise<string[]>;

export const systemResolveHost: ResolveHost = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

// IPv6 global unicast is 2000::/3; ipaddr.js calls unassigned space "unicast" as well, which we refuse.
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR("2000::/3");

export const isIpAddress = (text: string): boolean => ipaddr.isValid(text);

/** The IP address inside a URL hostname (`[::1]` → `::1`), or null for a name. */
export function literalAddress(hostname: string): string | null {
  const bare = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
  return isIpAddress(bare) ? bare : null;
}

/**
 * Why an address may not be contacted ("a private address"), or null when it is public.
 * IPv4-mapped IPv6 addresses are judged as the IPv4 address they carry.
 */
export function addressRefusal(address: string): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address);
  } catch {
    return "not a valid IP address";
  }
  const range = parsed.range();
  if (range !== "unicast") return withArticle(`${describeRange(range)} address`);
  if (parsed.kind() === "ipv6" && !parsed.match(GLOBAL_UNICAST_V6)) {
    return "an IPv6 address outside global unicast space";
  }
  return null;
}

// ipaddr.js range names, in words; the rest read fine once split ("loopback", "private", "reserved").
const RANGE_WORDS: Record<string, string> = {
  carrierGradeNat: "carrier-grade NAT",
  linkLocal: "link-local",
  uniqueLocal: "unique local",
  rfc6052: "NAT64",
  rfc6145: "IPv4-translated",
  "6to4": "6to4",
};

function describeRange(range: string): string {
  return RANGE_WORDS[range] ?? range.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}

const withArticle = (words: string) => `${/^[aeiou]/i.test(words) ? "an" : "a"} ${words}`;

/**
 * How a refusal ends: an operator who means to use a marketplace or a webhook receiver on their own
 * network (this machine, a private address) learns the setting that allows it.
 */
export const notAllowedUnlessListed = (setting: string) => `which is not allowed unless its host is listed in ${setting}`;

export const addressFamily = (address: string): 4 | 6 => (ipaddr.parse(address).kind() === "ipv4" ? 4 : 6);
