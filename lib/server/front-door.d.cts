import type { IncomingMessage, ServerResponse } from "node:http";
import type { ServeApi } from "./api-fast-path.cjs";

/** The types of front-door.cjs (plain CommonJS beside the production server), for the TypeScript that imports it. */

export function createRequestListener(options: {
  serveApi: () => ServeApi | null;
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  stopping: () => boolean;
  log: (level: string, msg: string, fields?: Record<string, unknown>) => void;
}): (req: IncomingMessage, res: ServerResponse) => void;
