import "server-only";
import { createHash } from "node:crypto";
import type { Database } from "@/db/client";
import { SIGN_IN_FAILURES_PER_ADDRESS, SIGN_IN_FAILURES_PER_USER } from "./limits";
import { type CountedKey, countEvents, isOverLimit, takeBack, type WindowCount } from "./window-counter";

/**
 * Sign-in throttling (CONTRACT §11): more than 10 failed sign-ins for one user id, or more
 * than 50 from one client address, within 15 minutes answer 429.
 *
 * Why an attempt is counted BEFORE its password is checked, and taken back afterwards
 * unless it failed: checking the counters first and counting only after a failure would
 * let concurrent attempts all pass the check before any of them is counted, so an attacker
 * firing 500 guesses at once would get 500 guesses. Counting up front in one atomic
 * statement gives every attempt its own place in the window: only the first 10 (per id)
 * ever reach the password check, however many run at once and in however many processes.
 * A success, an attempt next-auth refused before checking a password (no CSRF token) and
 * an attempt answered 429 are taken back, so the counters hold failed sign-ins (plus those
 * still in flight) and a user signing in correctly never uses up anyone's allowance.
 */
export type SignInAdmission = { admitted: true; attempt: SignInAttempt } | { admitted: false; retryAfterSeconds: number };

/** An admitted attempt's counters, to be settled once its outcome is known. */
export interface SignInAttempt {
  counted: WindowCount[];
}

/** Counts an attempt for the user id (when one was sent) and the client address, and admits it when both are within their limits. */
export async function admitSignInAttempt(db: Database, userName: string | null, address: string): Promise<SignInAdmission> {
  const keys: CountedKey[] = [{ limit: SIGN_IN_FAILURES_PER_ADDRESS, key: address }];
  if (userName !== null) {
    const userId = normaliseUserId(userName);
    if (userId) keys.push({ limit: SIGN_IN_FAILURES_PER_USER, key: userIdKey(userId) });
  }
  const counted = await countEvents(db, keys);
  const over = counted.filter(isOverLimit);
  if (over.length === 0) return { admitted: true, attempt: { counted } };
  await takeBack(db, counted);
  return { admitted: false, retryAfterSeconds: Math.max(...over.map((c) => c.secondsLeft)) };
}

/** Keeps the attempt counted when it failed (a wrong user name or password); takes it back otherwise. */
export async function settleSignInAttempt(db: Database, attempt: SignInAttempt, failed: boolean): Promise<void> {
  if (!failed) await takeBack(db, attempt.counted);
}

/** The user id a user name signs in as, normalised like lib/auth/credentials.ts does. */
const normaliseUserId = (userName: string): string => userName.trim().toLowerCase();

// Plain ids keep the table readable; anything else (overlong, control characters, NUL,
// lone surrogates — which PostgreSQL text cannot hold) is stored as its hash.
const PLAIN_KEY = /^[\x21-\x7e]{1,128}$/;

function userIdKey(userId: string): string {
  return PLAIN_KEY.test(userId) ? userId : `sha256:${createHash("sha256").update(userId, "utf8").digest("hex")}`;
}
