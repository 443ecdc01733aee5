// api-keys list|create|revoke: your own keys, a service account's (--service-account) or, for
// admins, any user's (--user).
import type { Command } from "commander";
import type { Api } from "../api";
import { action } from "../context";
import { CliFailure, cliProblem, ExitCode, usageError } from "../errors";
import { printJson, printLines, printTable, warn } from "../output";

interface OwnerOptions {
  serviceAccount?: string;
  user?: string;
}

interface CreateOptions extends OwnerOptions {
  description?: string;
  expiresInDays?: string;
  readOnly?: boolean;
}

const ownerOptions = (command: Command) =>
  command
    .option("--service-account <id>", "the keys of one of your service accounts")
    .option("--user <id>", "the keys of any user (admins)");

/** The key collection path of the owner the options name, with its path parameters. */
function keyCollection(options: OwnerOptions) {
  if (options.serviceAccount && options.user) throw usageError("Give --service-account or --user, not both");
  if (options.serviceAccount) return { kind: "serviceAccount", path: { sa_id: options.serviceAccount } } as const;
  if (options.user) return { kind: "user", path: { user_id: options.user } } as const;
  return { kind: "self", path: {} } as const;
}

function listKeys(api: Api, options: OwnerOptions) {
  const owner = keyCollection(options);
  if (owner.kind === "serviceAccount")
    return api.client.GET("/ext/svc/me/service-accounts/{sa_id}/api-keys", { params: { path: owner.path } });
  if (owner.kind === "user") return api.client.GET("/ext/svc/admin/users/{user_id}/api-keys", { params: { path: owner.path } });
  return api.client.GET("/ext/svc/me/api-keys");
}

/** A key made whose token cannot be shown any more: revoke it and make a new one. */
function tokenNotShown(keyId: string, options: OwnerOptions): CliFailure {
  const owner = options.serviceAccount ? ` --service-account ${options.serviceAccount}` : options.user ? ` --user ${options.user}` : "";
  const detail = `Key ${keyId} was made, but its token cannot be shown again: the first answer was lost and a repeated answer never holds the token. Revoke it (bank-templates api-keys revoke ${keyId}${owner}) and create a new key.`;
  return new CliFailure(cliProblem("token-not-shown", "Token not shown", detail), ExitCode.refused);
}

/** --expires-in-days as a whole number; its range (1-365) is the server's to judge. */
function expiresInDays(text: string | undefined): number | null {
  if (text === undefined) return null;
  if (!/^\d+$/.test(text)) throw usageError(`--expires-in-days must be a whole number of days, not ${JSON.stringify(text)}`);
  return Number(text);
}

export function registerApiKeyCommands(program: Command): void {
  const keys = program.command("api-keys").description("API keys: yours, a service account's, or (admins) any user's");

  ownerOptions(keys.command("list").description("list keys (their prefixes; tokens are shown only when created)")).action(
    action(async (context, options: OwnerOptions) => {
      const api = await context.connect();
      const list = await api.call(listKeys(api, options));
      if (context.json) return printJson(list);
      printTable(
        ["ID", "PREFIX", "SCOPE", "EXPIRES", "LAST USED", "DESCRIPTION"],
        list.map((key) => [key.id, key.prefix, key.scope, key.expires_at ?? "never", key.last_used_at ?? "never", key.description]),
        "no API keys",
      );
    }),
  );

  ownerOptions(
    keys
      .command("create")
      .description("create a key and print its token, shown this once")
      .option("--description <text>", "what the key is for (up to 200 characters)")
      .option("--expires-in-days <days>", "the key stops working after this many days (1-365); without it, never")
      .option("--read-only", "the key may only read (GET); anything else it sends is refused"),
  ).action(
    action(async (context, options: CreateOptions) => {
      const body = {
        description: options.description ?? null,
        expires_in_days: expiresInDays(options.expiresInDays),
        scope: options.readOnly ? ("read" as const) : ("write" as const),
      };
      const owner = keyCollection(options);
      const api = await context.connect();
      const created = await api.call(
        owner.kind === "serviceAccount"
          ? api.client.POST("/ext/svc/me/service-accounts/{sa_id}/api-keys", { params: { path: owner.path }, body })
          : owner.kind === "user"
            ? api.client.POST("/ext/svc/admin/users/{user_id}/api-keys", { params: { path: owner.path }, body })
            : api.client.POST("/ext/svc/me/api-keys", { body }),
      );
      // The answer was lost and the typed client's retry got it again (Idempotency-Key): the key
      // exists, but a replay never holds its token (CONTRACT §19).
      if (created.token === null) throw tokenNotShown(created.id, options);
      if (context.json) return printJson(created);
      warn("The token below is shown only this once; store it now.");
      printLines(created.token);
    }),
  );

  ownerOptions(
    keys.command("revoke").description("revoke a key: programs using it are refused at once").argument("<key_id>", "the key's id"),
  ).action(
    action(async (context, keyId: string, options: OwnerOptions) => {
      const owner = keyCollection(options);
      const api = await context.connect();
      await api.call(
        owner.kind === "serviceAccount"
          ? api.client.DELETE("/ext/svc/me/service-accounts/{sa_id}/api-keys/{key_id}", {
              params: { path: { ...owner.path, key_id: keyId } },
            })
          : owner.kind === "user"
            ? api.client.DELETE("/ext/svc/admin/users/{user_id}/api-keys/{key_id}", { params: { path: { ...owner.path, key_id: keyId } } })
            : api.client.DELETE("/ext/svc/me/api-keys/{key_id}", { params: { path: { key_id: keyId } } }),
      );
      if (context.json) return printJson({ id: keyId, revoked: true });
      printLines(`revoked ${keyId}`);
    }),
  );
}
