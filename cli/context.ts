// What every command's action gets: whether --json was given and, on first use, the API.
import { type Command, InvalidArgumentError, Option } from "commander";
import type { paths } from "../client";
import { Api } from "./api";
import { resolveConnection } from "./config";
import type { ExitCode } from "./errors";
import { printJson, warn } from "./output";

export type Scope = "personal" | "server";

type PersonalPath = Extract<keyof paths, `/ext/svc/me/${string}`>;

/**
 * A personal operation's path, or its server twin under /ext/svc/admin/ (CONTRACT: /me and
 * /admin share one implementation, so the two have the same parameters, bodies and answers).
 */
export function scoped<P extends PersonalPath>(scope: Scope, path: P): P {
  return (scope === "server" ? path.replace("/ext/svc/me/", "/ext/svc/admin/") : path) as P;
}

export class Context {
  private api: Api | undefined;

  constructor(readonly json: boolean) {}

  /** The API, with the URL and key of BANK_TEMPLATES_URL / BANK_TEMPLATES_API_KEY or the stored login. */
  async connect(): Promise<Api> {
    this.api ??= new Api(await resolveConnection());
    return this.api;
  }
}

/**
 * Adapts a handler to commander's `action(...args, options, command)`: the handler gets the
 * context first, and what it returns becomes the exit code. Failures are thrown (CliFailure)
 * and reported by main.
 */
export function action<Args extends unknown[]>(
  // biome-ignore lint/suspicious/noConfusingVoidType: most handlers return nothing (exit 0); `undefined` would make them all say so.
  handler: (context: Context, ...args: Args) => Promise<ExitCode | void>,
) {
  return async (...args: unknown[]) => {
    const command = args[args.length - 1] as Command;
    const context = new Context(Boolean(command.optsWithGlobals().json));
    const code = await handler(context, ...(args.slice(0, -1) as Args));
    if (code) process.exitCode = code;
  };
}

/**
 * `--scope personal|server`: the API's /me paths (the caller's own rows) or its /admin paths
 * (the server's rows, admins only). Without a default, list commands show both.
 */
export function scopeOption(defaultScope: Scope | null = "personal"): Option {
  const option = new Option("--scope <scope>", "whose: yours (/me paths) or the server's (/admin paths, admins only)").choices([
    "personal",
    "server",
  ]);
  return defaultScope ? option.default(defaultScope) : option;
}

/** Which source of a name: yours or the server's; default as the API decides (yours, else the server's). */
export const sourceScopeOption = () =>
  new Option("--source-scope <scope>", "which source of that name (default: yours, else the server's)").choices(["personal", "server"]);

/** A poller's read: `--if-none-match <etag>` answers "not modified" instead of the resource while that is its version. */
export const ifNoneMatchOption = () =>
  new Option("--if-none-match <etag>", "print nothing but a note when it is still at this version (its ETag from --json): for pollers");

/**
 * A read answered 304: a note on stderr and nothing on stdout, or with --json
 * `{...which, not_modified: true, etag}`. Exit 0.
 */
export function reportNotModified(context: Context, what: string, which: Record<string, unknown>, etag: string | undefined): void {
  if (context.json) printJson({ ...which, not_modified: true, etag });
  else warn(`${what} has not changed since ${etag}`);
}

export function positiveInteger(name: string) {
  return (value: string): number => {
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < 1) throw new InvalidArgumentError(`${name} must be a positive integer`);
    return parsed;
  };
}
