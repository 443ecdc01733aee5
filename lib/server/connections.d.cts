import type { Server } from "node:http";

/** The types of connections.cjs (plain CommonJS beside the production server), for the TypeScript that imports it. */

type Log = (level: string, msg: string, fields?: Record<string, unknown>) => void;

export interface ConnectionLimits {
  /** Open connections the process holds at most. */
  total: number;
  /** Open connections one client address (an IPv6 /64) holds at most. */
  perAddress: number;
  /** The process's open-file limit the total was derived from. */
  descriptors: number;
  /** MAX_CONNECTIONS asked for more than the descriptors allow, and was lowered. */
  lowered: boolean;
}

/** A problem answer of the server's own, before any route; `type` is the name in lib/contracts/problem-types.ts. */
export interface EdgeProblem {
  type: string;
  status: number;
  title: string;
  detail: string;
}

export function connectionLimitsFrom(env: Record<string, string | undefined>, descriptors?: number): ConnectionLimits;
export function addressKey(address: string | undefined): string;
export function limitConnections(
  server: Server,
  limits: Pick<ConnectionLimits, "total" | "perAddress">,
  log: Log,
  options?: { refusalsLogIntervalMs?: number },
): void;
export const CLIENT_ERROR_PROBLEMS: Record<string, EdgeProblem>;
export const MALFORMED_REQUEST: EdgeProblem;
export function answerClientErrors(server: Server, log: Log): void;
