import ipaddr from "ipaddr.js";

/**
 * Which client a request comes from, for the per-address limits of CONTRACT §11.
 *
 * What Next 16 hands a route handler (node_modules/next/dist/server/base-server.js,
 * handleRequestImpl): `req.headers['x-forwarded-for'] ??= socket.remoteAddress`. Next
 * only FILLS the header from the socket when the request arrived without one; a client
 * that sends its own X-Forwarded-For gets it through unchanged, and route handlers have no
 * other view of the socket (NextRequest carries no `ip` since Next 15). Read naively, the
 * header would let a client pick a fresh "address" for every guess.
 *
 * So the server process appends the socket's peer address to X-Forwarded-For before Next
 * sees the request (./peer-address.ts, installed from instrumentation.ts), exactly as a
 * reverse proxy does. The RIGHTMOST entry is then always the address the server observed,
 * and whatever a client wrote stays to its left, where it is never read. Behind
 * `trustedProxies` reverse proxies that each append the address they saw, the entry that
 * many places further left is the client's. (Without the hook, e.g. under `next dev`, the
 * rightmost entry is still the socket address whenever the client sent no header.)
 *
 * IPv6 clients are counted per /64, the block one host or home network usually gets:
 * counting single IPv6 addresses would let one client rotate through 2^64 of them.
 */
export function clientAddress(headers: Headers, trustedProxies = 0): string {
  const entries = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const index = Math.max(0, entries.length - 1 - trustedProxies);
  const entry = entries[index];
  return (entry && addressKey(entry)) ?? UNKNOWN_ADDRESS;
}

/** The shared key of requests whose address cannot be read (no header, a malformed entry). */
export const UNKNOWN_ADDRESS = "unknown";

/** An address as a counter key: IPv4 as is (also when IPv4-mapped), IPv6 as its /64; null if not an address. */
function addressKey(text: string): string | null {
  const parsed = parseAddress(text);
  if (!parsed) return null;
  if (parsed.kind() === "ipv4") return parsed.toString();
  const bytes = parsed.toByteArray().map((byte, i) => (i < 8 ? byte : 0));
  return `${ipaddr.fromByteArray(bytes).toString()}/64`;
}

/** Parses `1.2.3.4`, `::1`, and the forms with a port some proxies write (`1.2.3.4:5678`, `[::1]:5678`). */
function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text)?.[1];
  const v4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(text)?.[1];
  const candidate = bracketed ?? v4WithPort ?? text;
  // A zone index (fe80::1%eth0) names the host's interface, not the client.
  const withoutZone = candidate.replace(/%.*$/, "");
  if (!ipaddr.isValid(withoutZone)) return null;
  return ipaddr.process(withoutZone);
}
