import "server-only";
import { STATUS_CODES } from "node:http";
import type { LookupFunction } from "node:net";
import { Agent, type Dispatcher, request } from "undici";
import { badGateway, DomainError } from "@/lib/contracts/errors";
import { readCapped, upstreamFailure } from "@/lib/platform/outbound";
import {
  addressFamily,
  addressRefusal,
  isIpAddress,
  literalAddress,
  notAllowedUnlessListed,
  type ResolveHost,
  systemResolveHost,
} from "./address";
import { clientGone } from "./operation";
import { displayUrl } from "./outbound";

/** Which addresses a request may reach (CONTRACT §6): public ones, and those of the hosts listed. */
interface AddressPolicy {
  allowedHosts: string[];
  resolveHost?: ResolveHost;
}

/** The limits of CONTRACT §6 that every marketplace request obeys. */
export interface FetchPolicy extends AddressPolicy {
  timeoutMs: number;
  maxBytes: number;
}

export interface SafeFetchRequest {
  url: string;
  authToken: string | null;
  /** The only origin the token is sent to; once a redirect leaves it, the token stays behind. */
  authOrigin: string;
  /** Validators of a cached copy: the request becomes conditional and may answer 304. */
  conditional?: { etag: string | null; lastModified: string | null };
  /** Aborted when nobody waits for the answer any more: the request is dropped at once. */
  cancel?: AbortSignal;
}

export interface Validators {
  etag: string | null;
  lastModified: string | null;
}

export type SafeFetchResult = ({ kind: "body"; body: string } & Validators) | ({ kind: "not-modified" } & Validators);

/** Whom a request goes to, as its refusals name it, and the setting that lets a private host through. */
interface Subject {
  noun: string;
  setting: string;
}

const MARKETPLACE: Subject = { noun: "marketplace", setting: "MARKETPLACE_ALLOWED_HOSTS" };

const MAX_REDIRECTS = 3;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

type Hop = { kind: "redirect"; location: string } | SafeFetchResult;

/**
 * GETs a marketplace URL under the fetch-safety rules of CONTRACT §6: http(s) only, every address
 * checked before connecting (and the connection pinned to it), redirects followed by hand and
 * checked again, body size and total time bounded. Failures are 502/504 ApiErrors naming the URL.
 */
export async function safeFetch(policy: FetchPolicy, req: SafeFetchRequest): Promise<SafeFetchResult> {
  if (req.cancel?.aborted) throw clientGone();
  const deadline = AbortSignal.timeout(policy.timeoutMs);
  const signal = req.cancel ? AbortSignal.any([deadline, req.cancel]) : deadline;
  const start = parseTarget(req.url);
  let url = start;
  let withToken = req.authToken !== null && url.origin === req.authOrigin;
  for (let redirects = 0; ; redirects++) {
    const headers = requestHeaders(withToken ? req.authToken : null, req.conditional);
    const hop = await runHop(policy, url, headers, signal, redirects > 0 ? start : null, req.cancel);
    if (hop.kind !== "redirect") {
      if (hop.kind === "not-modified" && !req.conditional) {
        const detail = `The marketplace at ${displayUrl(url)} answered 304 Not Modified to an unconditional request.`;
        throw badGateway(detail);
      }
      return hop;
    }
    if (redirects === MAX_REDIRECTS) {
      throw badGateway(`The marketplace at ${displayUrl(start)} redirected more than ${MAX_REDIRECTS} times.`);
    }
    url = redirectTarget(url, hop.location);
    if (url.origin !== req.authOrigin) withToken = false;
  }
}

/**
 * One request of the chain; whatever it throws becomes a 502 or 504 naming its URL and, after a
 * redirect, the URL the chain started from.
 */
async function runHop(
  policy: FetchPolicy,
  url: URL,
  headers: Record<string, string>,
  signal: AbortSignal,
  redirectedFrom: URL | null,
  cancel: AbortSignal | undefined,
): Promise<Hop> {
  try {
    return await fetchOnce(policy, url, headers, signal);
  } catch (error) {
    // Nobody waits for this answer any more; it is not the marketplace's fault.
    if (cancel?.aborted) throw clientGone();
    const domainError = toDomainError(error, url, policy, signal);
    if (!redirectedFrom) throw domainError;
    const detail = `${domainError.detail.replace(/\.$/, "")} (redirected from ${displayUrl(redirectedFrom)}).`;
    throw domainError.withDetail(detail);
  }
}

function parseTarget(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw badGateway(`The marketplace URL ${text} is not an absolute URL.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw badGateway(`The marketplace URL ${displayUrl(url)} is not an http or https URL.`);
  }
  return url;
}

function redirectTarget(from: URL, location: string): URL {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw badGateway(`The marketplace at ${displayUrl(from)} redirected to an invalid URL.`);
  }
  if (next.protocol !== "http:" && next.protocol !== "https:") {
    const target = displayUrl(next);
    throw badGateway(`The marketplace at ${displayUrl(from)} redirected to ${target}, which is not http or https.`);
  }
  return next;
}

function requestHeaders(token: string | null, conditional: SafeFetchRequest["conditional"]): Record<string, string> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (conditional?.etag) headers["if-none-match"] = conditional.etag;
  if (conditional?.lastModified) headers["if-modified-since"] = conditional.lastModified;
  return headers;
}

const toDomainError = (error: unknown, url: URL, policy: FetchPolicy, signal: AbortSignal): DomainError =>
  upstreamFailure(error, `The marketplace at ${displayUrl(url)}`, policy.timeoutMs, signal.aborted);

async function fetchOnce(policy: FetchPolicy, url: URL, headers: Record<string, string>, signal: AbortSignal): Promise<Hop> {
  const address = await checkedAddress(policy, MARKETPLACE, url, signal);
  const agent = pinnedAgent(address, policy.timeoutMs);
  try {
    const res = await request(url, { method: "GET", headers, signal, dispatcher: agent });
    return await readHop(policy, url, res);
  } finally {
    await agent.destroy();
  }
}

async function readHop(policy: FetchPolicy, url: URL, res: Dispatcher.ResponseData): Promise<Hop> {
  const status = res.statusCode;
  if (REDIRECT_STATUSES.has(status)) {
    await res.body.dump();
    const location = header(res, "location");
    if (!location) throw badGateway(`The marketplace at ${displayUrl(url)} answered ${status} without a Location.`);
    return { kind: "redirect", location };
  }
  const validators = { etag: header(res, "etag"), lastModified: header(res, "last-modified") };
  if (status === 304) {
    await res.body.dump();
    return { kind: "not-modified", ...validators };
  }
  if (status < 200 || status > 299) {
    await res.body.dump();
    const text = STATUS_CODES[status] ?? "";
    throw badGateway(`The marketplace at ${displayUrl(url)} answered ${`${status} ${text}`.trim()}.`);
  }
  return { kind: "body", body: await readLimited(policy, url, res), ...validators };
}

function header(res: Dispatcher.ResponseData, name: string): string | null {
  const value = res.headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first ?? null;
}

/** Reads the body, refusing it by Content-Length up front and by counted bytes as it streams. */
async function readLimited(policy: FetchPolicy, url: URL, res: Dispatcher.ResponseData): Promise<string> {
  const tooLarge = () => badGateway(`The marketplace at ${displayUrl(url)} sent a body larger than ${policy.maxBytes} bytes.`);
  const declared = Number(header(res, "content-length"));
  if (Number.isFinite(declared) && declared > policy.maxBytes) {
    res.body.destroy();
    throw tooLarge();
  }
  try {
    return (await readCapped(res.body, policy.maxBytes, tooLarge)).toString("utf8");
  } finally {
    res.body.destroy();
  }
}

interface PinnedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * Resolves the host once and checks every address; the connection then goes to the first of
 * them, so a second DNS answer cannot swap in an address that was never checked.
 * Allow-listed hosts (`host` or `host:port`) skip the public-address rule, not the pinning.
 */
async function checkedAddress(policy: AddressPolicy, subject: Subject, url: URL, signal: AbortSignal): Promise<PinnedAddress> {
  const literal = literalAddress(url.hostname);
  const addresses = literal ? [literal] : await resolveAll(policy, subject, url, signal);
  const allowed = isAllowedHost(url, policy.allowedHosts);
  const verb = literal ? "points at" : "resolves to";
  for (const address of addresses) {
    const refusal = allowed ? (isIpAddress(address) ? null : "not an IP address") : addressRefusal(address);
    if (refusal === null) continue;
    const ending = allowed ? "which is not allowed" : notAllowedUnlessListed(subject.setting);
    throw badGateway(`The ${subject.noun} URL ${displayUrl(url)} ${verb} ${address}, ${refusal}, ${ending}.`);
  }
  const first = addresses[0]!;
  return { address: first, family: addressFamily(first) };
}

async function resolveAll(policy: AddressPolicy, subject: Subject, url: URL, signal: AbortSignal): Promise<string[]> {
  const resolve = policy.resolveHost ?? systemResolveHost;
  let addresses: string[];
  try {
    addresses = await untilAborted(resolve(url.hostname), signal);
  } catch (error) {
    if (signal.aborted) throw error;
    addresses = [];
  }
  if (addresses.length === 0) {
    throw badGateway(`The ${subject.noun} at ${displayUrl(url)} could not be reached: its host name does not resolve.`);
  }
  return addresses;
}

function isAllowedHost(url: URL, allowedHosts: string[]): boolean {
  const forms = [url.host.toLowerCase(), url.hostname.toLowerCase()];
  return allowedHosts.some((allowed) => forms.includes(allowed.toLowerCase()));
}

/** DNS lookups cannot be cancelled; stop waiting for one when the fetch's time is up. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** An Agent whose every connection goes to the checked address; Host header and TLS SNI keep the name. */
function pinnedAgent(pinned: PinnedAddress, timeoutMs: number): Agent {
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
  return new Agent({
    connect: { lookup, timeout: timeoutMs },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
}

// --- Webhook deliveries (CONTRACT §20) ------------------------------------------------------------

const WEBHOOK: Subject = { noun: "webhook", setting: "WEBHOOK_ALLOWED_HOSTS" };

/** The limits a webhook delivery obeys: §6's address rule, a whole-exchange timeout, a bounded read of the answer. */
export interface PostPolicy extends AddressPolicy {
  timeoutMs: number;
  /** How much of the receiver's answer is read (and kept); the rest is left unread. */
  maxResponseBytes: number;
}

/** What a receiver answered: its status and the start of its body (at most `maxResponseBytes`, as text). */
export interface PostAnswer {
  status: number;
  body: string;
}

/**
 * Why a webhook URL may not be sent to (its host resolves to a private address and is not listed
 * in WEBHOOK_ALLOWED_HOSTS, or does not resolve), as one sentence; null when it may. Checked when a
 * webhook is saved; every delivery checks again (the answer of DNS may change).
 */
export async function webhookUrlRefusal(policy: AddressPolicy & { timeoutMs: number }, url: string): Promise<string | null> {
  try {
    await checkedAddress(policy, WEBHOOK, new URL(url), AbortSignal.timeout(policy.timeoutMs));
    return null;
  } catch (error) {
    if (error instanceof DomainError) return error.detail;
    return `The webhook at ${displayUrl(url)} could not be checked: its host name did not resolve in time.`;
  }
}

/**
 * POSTs a webhook delivery under the address rule of CONTRACT §6 (the connection pinned to the
 * checked address), following no redirect (a 3xx is the answer), reading at most
 * `maxResponseBytes` of the answer and giving up after `timeoutMs` for the whole exchange. Answers
 * whatever status the receiver gave; a refused address, a failed connection or the time running
 * out throw a 502 or 504 DomainError whose detail says why.
 */
export async function safePost(
  policy: PostPolicy,
  req: { url: string; headers: Record<string, string>; body: string; cancel?: AbortSignal },
): Promise<PostAnswer> {
  const deadline = AbortSignal.timeout(policy.timeoutMs);
  const signal = req.cancel ? AbortSignal.any([deadline, req.cancel]) : deadline;
  const url = new URL(req.url);
  try {
    const address = await checkedAddress(policy, WEBHOOK, url, signal);
    const agent = pinnedAgent(address, policy.timeoutMs);
    try {
      const res = await request(url, { method: "POST", headers: req.headers, body: req.body, signal, dispatcher: agent });
      const body = await readPrefix(res.body, policy.maxResponseBytes);
      return { status: res.statusCode, body: body.toString("utf8") };
    } finally {
      await agent.destroy();
    }
  } catch (error) {
    throw upstreamFailure(error, `The webhook at ${displayUrl(url)}`, policy.timeoutMs, deadline.aborted);
  }
}

/** The first `limit` bytes of a body (all of a shorter one); the rest is not read. */
async function readPrefix(body: Dispatcher.ResponseData["body"], limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of body) {
      const buffer = chunk as Buffer;
      chunks.push(buffer.subarray(0, limit - total));
      total += Math.min(buffer.length, limit - total);
      if (total >= limit) break;
    }
  } finally {
    body.destroy();
  }
  return Buffer.concat(chunks);
}
