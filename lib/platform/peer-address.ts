import "server-only";
import http from "node:http";
import https from "node:https";

// Installed once per process (instrumentation.ts may run again in development).
const INSTALLED = Symbol.for("bank-template-console.peer-address");

/**
 * Makes the server append each connection's peer address to X-Forwarded-For before Next
 * handles the request, as a reverse proxy would. Next itself only fills the header when it
 * is absent (see ./client-address.ts), which would let a client choose its own address for
 * the per-address rate limits; after this, the rightmost entry is always the address the
 * server observed. `next start` serves through `http.createServer` (or `https` with
 * --experimental-https) in this very process and dispatches each request with
 * `server.emit("request", req, res)`, which is where this hooks in.
 */
export function appendPeerAddressToForwardedFor(): void {
  const registry = globalThis as Record<symbol, boolean>;
  if (registry[INSTALLED]) return;
  registry[INSTALLED] = true;
  for (const ServerClass of [http.Server, https.Server]) {
    const prototype = ServerClass.prototype as http.Server;
    const originalEmit = prototype.emit as (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;
    prototype.emit = function emitWithPeerAddress(this: http.Server, event: string | symbol, ...args: unknown[]): boolean {
      if (event === "request" || event === "checkContinue" || event === "checkExpectation") {
        const request = args[0] as http.IncomingMessage | undefined;
        const peer = request?.socket?.remoteAddress;
        if (request && peer) {
          const prior = request.headers["x-forwarded-for"];
          request.headers["x-forwarded-for"] = prior ? `${prior}, ${peer}` : peer;
        }
      }
      return originalEmit.call(this, event, ...args);
    } as typeof prototype.emit;
  }
}
