// login, logout, whoami: the stored server URL and API key, and who they are.
import type { Command } from "commander";
import { Api } from "../api";
import { configFile, normalizeBaseUrl, removeStoredLogin, storeLogin } from "../config";
import { action } from "../context";
import { usageError } from "../errors";
import { prompt, promptSecret, readStdinLine } from "../input";
import { printJson, printLines, warn } from "../output";

interface LoginOptions {
  url?: string;
  key?: string;
}

export function registerAuthCommands(program: Command): void {
  program
    .command("login")
    .description("verify an API key with the server and store the server URL and key in your config folder (mode 0600)")
    .option("--url <url>", "the server, such as https://templates.example.com (prompted for when absent)")
    .option(
      "--key <key>",
      "the API key (visible to other users in the process list and kept in your shell history: leave it out to be asked without echo, or pipe it on stdin)",
    )
    .action(
      action(async ({ json }, options: LoginOptions) => {
        const url = normalizeBaseUrl(options.url ?? (await askOnTerminal("Server URL: ", "--url")));
        if (options.key !== undefined) {
          warn(
            "warning: a key given with --key is visible in the process list and your shell history; leave --key out to type it unseen or pipe it on stdin",
          );
        }
        const apiKey = options.key ?? (process.stdin.isTTY ? await promptSecret("API key: ") : await readStdinLine());
        if (!apiKey) throw usageError("No API key given: pass --key, type it when asked, or pipe it on stdin");
        // The key is stored only once the server accepted it; a refused key exits 4 and stores nothing.
        const api = new Api({ url, apiKey });
        const me = await api.call(api.client.GET("/ext/svc/me"));
        const file = await storeLogin({ url, api_key: apiKey });
        if (json) printJson({ url, config_file: file, ...me });
        else printLines(`logged in to ${url} as ${me.user_id} (${me.principal_type}, ${me.role}); saved in ${file}`);
      }),
    );

  program
    .command("logout")
    .description("remove the stored login")
    .action(
      action(async ({ json }) => {
        const file = configFile();
        const removed = await removeStoredLogin();
        if (json) printJson({ logged_out: removed, config_file: file });
        else printLines(removed ? `logged out; removed ${file}` : "not logged in; nothing to remove");
      }),
    );

  program
    .command("whoami")
    .description("show the server and the user or service account the key belongs to")
    .action(
      action(async (context) => {
        const api = await context.connect();
        const me = await api.call(api.client.GET("/ext/svc/me"));
        if (context.json) printJson({ url: api.connection.url, ...me });
        else printLines(`${me.user_id} (${me.principal_type} ${me.principal_id}, ${me.role}) at ${api.connection.url}`);
      }),
    );
}

async function askOnTerminal(question: string, flag: string): Promise<string> {
  if (!process.stdin.isTTY) throw usageError(`${flag} is required when stdin is not a terminal`);
  return prompt(question);
}
