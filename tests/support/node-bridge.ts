import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * Answers a node:http request with what `call` answers the same request as a WHATWG Request
 * (read whole: the test servers' bodies are small), for test servers that put a route handler
 * called in process behind real HTTP.
 */
export async function answerWith(req: IncomingMessage, res: ServerResponse, call: (request: Request) => Promise<Response>): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const method = req.method ?? "GET";
  const body = method === "GET" || method === "HEAD" ? undefined : Buffer.concat(chunks);
  const response = await call(new Request(new URL(req.url ?? "/", "http://127.0.0.1"), { method, headers, body }));
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
}
