import "server-only";
import { createHash } from "node:crypto";
import type { Database } from "@/db/client";
import { isKnownSignInAddress } from "./known-addresses";
import { SIGN_IN_FAILURES_PER_ADDRESS, SIGN_IN_FAILURES_PER_USER_AND_ADDRESS } from "./limits";
import { type CountedKey, countEvents, isOverLimit, takeBack, type WindowCount } from "./window-counter";

/**
 * Sign-in throttling that never locks a user out (CONTRACT §18): more than 10 failed
 * sign-ins for one (user id, client address) pair within 15 minutes answer 429 for that pair
 * only; more than 50 from one client address answer 429 from that address, except for a
 * user id that signed in successfully from there within 30 days (./known-addresses.ts).
 * An attacker guessing admin's password thus throttles only himself: admin still signs in
 * from anywhere else, and from a shared address where admin signed in before.
 *
 * Why an attempt is counted BEFORE its password is checked, and taken back afterwards
 * unless it failed: checking the counters first and counting only after a failure would
 * let concurrent attempts all pass the check before any of them is counted, so an attacker
 * firing 500 guesses at once would get 500 guesses. Counting up front in one atomic
 * statement gives every attempt its own place in the window: only the first 10 (per pair)
 * ever reach the password check, however many run at once and in however many processes.
 * A success, an attempt next-auth refused before checking a password (no CSRF token) and
 * an attempt answered 429 are taken back, so the counters hold failed sign-ins (plus those
 * still in flight) and a user signing in correctly never uses up anyone's allowance.
 *
 * Whether the user id is known at the address is read only when the address is over its
 * limit, so an ordinary sign-in costs one statement before the password check, as before.
 */
export type SignInAdmission = { admitted: true; attempt: SignInAttempt } | { admitted: false; retryAfterSeconds: number };

/** An admitted attempt's counters, to be settled once its outcome is known. */
export interface SignInAttempt {
  counted: WindowCount[];
}

/** Counts an attempt for the client address and (when a user id was sent) the pair, and admits it when the limits that apply allow it. */
export async function admitSignInAttempt(db: Database, userName: string | null, address: string): Promise<SignInAdmission> {
  const userId = userName === null ? "" : normaliseUserId(userName);
  const keys: CountedKey[] = [{ limit: SIGN_IN_FAILURES_PER_ADDRESS, key: address }];
  if (userId) keys.push({ limit: SIGN_IN_FAILURES_PER_USER_AND_ADDRESS, key: pairKey(userId, address) });
  const counted = await countEvents(db, keys);
  const refusing = [];
  for (const counter of counted.filter(isOverLimit)) {
    if (counter.limit === SIGN_IN_FAILURES_PER_ADDRESS && (await isKnownAt(db, userId, address))) continue;
    refusing.push(counter);
  }
  if (refusing.length === 0) return { admitted: true, attempt: { counted } };
  await takeBack(db, counted);
  return { admitted: false, retryAfterSeconds: Math.max(...refusing.map((c) => c.secondsLeft)) };
}

/** Keeps the attempt counted when it failed (a wrong user name or password); takes it back otherwise. */
export async function settleSignInAttempt(db: Database, attempt: SignInAttempt, failed: boolean): Promise<void> {
  if (!failed) await takeBack(db, attempt.counted);
}

/** The user id a user name signs in as, normalised like lib/auth/credentials.ts does. */
const normaliseUserId = (userName: string): string => userName.trim().toLowerCase();

// Plain ids keep the table readable; anything else (overlong, control characters, NUL,
// lone surrogates — which PostgreSQL text cannot hold) is stored as its hash. User ids are
// always plain (CONTRACT §2), so a name that is not can be no user's.
const PLAIN_KEY = /^[\x21-\x7e]{1,128}$/;

function userIdKey(userId: string): string {
  return PLAIN_KEY.test(userId) ? userId : `sha256:${createHash("sha256").update(userId, "utf8").digest("hex")}`;
}

// Neither part holds a space (plain keys and hashes are printable ASCII without it; addresses
// are lib/platform/client-address.ts keys), so the pair's key is unambiguous.
const pairKey = (userId: string, address: string): string => `${userIdKey(userId)} ${address}`;

const isKnownAt = (db: Database, userId: string, address: string): Promise<boolean> =>
  userId !== "" && PLAIN_KEY.test(userId) ? isKnownSignInAddress(db, userId, address) : Promise.resolve(false);
