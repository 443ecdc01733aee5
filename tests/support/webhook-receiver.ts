import { createServer, type IncomingHttpHeaders } from "node:http";
import { Webhook } from "standardwebhooks";
import { listenOnLoopback } from "./loopback";

/** One delivery a receiver got: its headers and its body, exactly as sent. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body parsed: `{type, timestamp, data}`. */
  event: { type: string; timestamp: string; data: any };
}

export interface Receiver {
  /** `http://127.0.0.1:PORT/path`. */
  url(path?: string): string;
  received: Received[];
  /** What it got at `path`. */
  at(path: string): Received[];
  /**
   * How it answers a delivery to `path`: a status (default 204), or the statuses of the next
   * deliveries in turn (the last one stays).
   */
  answer(path: string, ...statuses: number[]): void;
  /** Holds every answer until `count` deliveries are in flight at once (then never again): proves they run side by side. */
  holdUntilInFlight(count: number): void;
  close(): Promise<void>;
}

/** A webhook receiver on 127.0.0.1 (node:http): records every delivery and answers as told. */
export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const statuses = new Map<string, number[]>();
  let held: Array<() => void> = [];
  let holdFor = 0;
  let inFlight = 0;
  const server = createServer((req, res) => {
    inFlight++;
    // Once per response, whether answered or abandoned by the sender.
    res.once("close", () => inFlight--);
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const path = req.url ?? "/";
      received.push({ path, headers: req.headers, body, event: JSON.parse(body) });
      const queue = statuses.get(path) ?? [204];
      const status = queue.length > 1 ? queue.shift()! : queue[0]!;
      const reply = () => {
        res.writeHead(status, { "content-type": "text/plain" }).end(status < 300 ? "ok" : `no: ${status}`);
      };
      if (holdFor === 0) return reply();
      held.push(reply);
      if (inFlight >= holdFor) {
        holdFor = 0;
        for (const release of held.splice(0)) release();
      }
    });
  });
  const port = await listenOnLoopback(server);
  return {
    url: (path = "/") => `http://127.0.0.1:${port}${path}`,
    received,
    at: (path) => received.filter((r) => r.path === path),
    answer: (path, ...codes) => void statuses.set(path, codes),
    holdUntilInFlight: (count) => {
      holdFor = count;
      held = [];
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/**
 * Verifies a delivery's signature with the `standardwebhooks` package, as a receiver would, at
 * `nowMs` (the sending worker's clock: the package refuses a timestamp 5 minutes off its own
 * clock, which a test that moves the worker's clock by days would otherwise trip). Throws when no
 * signature made with `secret` is valid; answers the parsed body.
 */
export function verifyDelivery(secret: string, delivery: Received, nowMs: number = Date.now()): unknown {
  const headers = {
    "webhook-id": String(delivery.headers["webhook-id"]),
    "webhook-timestamp": String(delivery.headers["webhook-timestamp"]),
    "webhook-signature": String(delivery.headers["webhook-signature"]),
  };
  const realNow = Date.now;
  Date.now = () => nowMs;
  try {
    return new Webhook(secret).verify(delivery.body, headers);
  } finally {
    Date.now = realNow;
  }
}
