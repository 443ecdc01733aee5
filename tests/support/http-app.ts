import { createServer } from "node:http";
import { callRoute } from "./app";
import { listenOnLoopback } from "./loopback";
import { answerWith } from "./node-bridge";

export interface ServedApp {
  /** `http://127.0.0.1:PORT`, without a trailing slash. */
  url: string;
  close(): Promise<void>;
}

/**
 * Serves the test app's route handlers over real HTTP on 127.0.0.1, for code that reaches the
 * API as programs do, with fetch and a base URL (the typed client in client/).
 */
export async function serveApp(): Promise<ServedApp> {
  const server = createServer(async (req, res) => {
    try {
      await answerWith(req, res, callRoute);
    } catch (error) {
      // A bridge failure, not the app's answer: say so plainly rather than hang the client.
      res.writeHead(500, { "content-type": "text/plain" }).end(`test bridge: ${String(error)}`);
    }
  });
  const port = await listenOnLoopback(server);
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
