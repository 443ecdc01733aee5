import type { Database } from "@/db/client";
import { API_KEY_FAILURES_PER_ADDRESS } from "./limits";
import { countEvents, isOverLimit } from "./window-counter";

/**
 * Failed API-key authentications per client address (CONTRACT §18): more than 1,000 in a
 * minute answer 429, to failures only. Keys are unguessable, so this only sheds the load of
 * counting; a valid key is looked up first and never refused, and costs nothing here.
 *
 * Hence nothing is read or written before a key is looked up: a failure is counted (one
 * statement) only after the lookup found no usable key, and the 1,001st failure learns from
 * that count that the address is over. From then until the window ends, this process answers
 * further failures from the address 429 from memory, without counting them. Another process
 * learns the same on its next failure from that address, so across N processes at most N
 * extra failures are counted per window, which is harmless for a load-shedding limit.
 */
const blockedUntil = new WeakMap<Database, Map<string, number>>();
// Only addresses over the limit are remembered; the cap bounds memory under an attack from
// very many addresses (the database still counts them; only the shortcut is lost).
const MAX_REMEMBERED = 10_000;

/** Seconds until the address may try again when this process knows it is over the limit; null otherwise. */
export function apiKeyAddressBlockedFor(db: Database, address: string): number | null {
  const until = blockedUntil.get(db)?.get(address);
  if (until === undefined) return null;
  const left = until - Date.now();
  if (left > 0) return Math.ceil(left / 1000);
  blockedUntil.get(db)?.delete(address);
  return null;
}

/** Counts a failed authentication; answers the seconds to wait when the address is now over the limit, else null. */
export async function countFailedApiKey(db: Database, address: string): Promise<number | null> {
  const [counted] = await countEvents(db, [{ limit: API_KEY_FAILURES_PER_ADDRESS, key: address }]);
  if (!counted || !isOverLimit(counted)) return null;
  remember(db, address, Date.now() + counted.secondsLeft * 1000);
  return counted.secondsLeft;
}

function remember(db: Database, address: string, until: number): void {
  let blocked = blockedUntil.get(db);
  if (!blocked) {
    blocked = new Map();
    blockedUntil.set(db, blocked);
  }
  const now = Date.now();
  for (const [known, knownUntil] of blocked) if (knownUntil <= now) blocked.delete(known);
  while (blocked.size >= MAX_REMEMBERED) blocked.delete(blocked.keys().next().value!);
  blocked.set(address, until);
}
