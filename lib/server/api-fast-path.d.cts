import type { IncomingMessage, ServerResponse } from "node:http";

/** The types of api-fast-path.cjs (plain CommonJS beside the production server), for the TypeScript that imports it. */

/** Next's route module of one route file, as far as the fast path uses it. */
export interface RouteModule {
  ensureUserland?(): Promise<void>;
  resolveHandler(method: string): (request: Request, context: { params?: Promise<unknown> }) => Promise<Response> | Response;
}

export interface ApiRoute {
  /** The key Next files the route under: `/ext/svc/me/route`. */
  key: string;
  routeModule: RouteModule;
}

/** Answers the request (the promise of it), or null when Next is to answer it. */
export type ServeApi = (req: IncomingMessage, res: ServerResponse, pathname: string) => Promise<void> | null;

export function createApiDispatcher(options: { routes: ApiRoute[]; hostname: string; port: number }): {
  serve: ServeApi | null;
  reason: string | null;
};

export function createApiFastPath(options: { distDir: string; hostname: string; port: number }): {
  serve: ServeApi | null;
  reason: string | null;
};
