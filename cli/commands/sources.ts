// sources list|add|remove|catalog: the marketplaces templates are installed from.
import type { Command } from "commander";
import { action, type Scope, scoped, scopeOption, sourceScopeOption } from "../context";
import { usageError } from "../errors";
import { readStdinLine } from "../input";
import { printJson, printLines, printTable } from "../output";

interface AddOptions {
  alias?: string;
  description?: string;
  authToken?: string;
  authTokenStdin?: boolean;
  scope: Scope;
}

interface CatalogOptions {
  scope: Scope;
  sourceScope?: Scope;
  refresh?: boolean;
}

export function registerSourceCommands(program: Command): void {
  const sources = program.command("sources").description("marketplaces (template sources)");

  sources
    .command("list")
    .description("list sources: without --scope every source you can install from, yours and the server's")
    .addOption(scopeOption(null))
    .action(
      action(async (context, options: { scope?: Scope }) => {
        const api = await context.connect();
        const list = await api.call(
          options.scope === "server"
            ? api.client.GET("/ext/svc/admin/template-sources")
            : options.scope === "personal"
              ? api.client.GET("/ext/svc/me/template-sources")
              : api.client.GET("/ext/svc/template-sources"),
        );
        if (context.json) return printJson(list);
        printTable(
          ["NAME", "SCOPE", "URL", "AUTH", "CATALOG ERROR"],
          list.map((source) => [source.name, source.scope, source.url, source.has_auth ? "yes" : "no", source.catalog_error]),
          "no sources",
        );
      }),
    );

  sources
    .command("add")
    .description("register a marketplace; its name is derived from the URL unless --alias is given")
    .argument("<url>", "the marketplace, such as https://github.com/acme/bank-templates")
    .option("--alias <name>", "name the source this instead of the name derived from the URL")
    .option("--description <text>", "a note kept with the source (up to 1,000 characters)")
    .option(
      "--auth-token <token>",
      "credential the server sends to the marketplace (visible in your shell history; prefer --auth-token-stdin)",
    )
    .option("--auth-token-stdin", "read that credential from the first line of stdin")
    .addOption(scopeOption())
    .action(
      action(async (context, url: string, options: AddOptions) => {
        if (options.authToken && options.authTokenStdin) throw usageError("Give --auth-token or --auth-token-stdin, not both");
        const authToken = options.authTokenStdin ? await readStdinLine() : options.authToken;
        const body = { url, alias: options.alias ?? null, auth_token: authToken || null, description: options.description ?? null };
        const api = await context.connect();
        const source = await api.call(api.client.POST(scoped(options.scope, "/ext/svc/me/template-sources"), { body }));
        if (context.json) return printJson(source);
        printLines(`added ${source.scope} source ${source.name} (${source.url})`);
      }),
    );

  sources
    .command("remove")
    .description("remove a source (templates installed from it stay, but can no longer be updated)")
    .argument("<name>", "the source's name")
    .addOption(scopeOption())
    .action(
      action(async (context, name: string, options: { scope: Scope }) => {
        const api = await context.connect();
        const params = { path: { name } };
        await api.call(api.client.DELETE(scoped(options.scope, "/ext/svc/me/template-sources/{name}"), { params }));
        if (context.json) return printJson({ name, scope: options.scope, removed: true });
        printLines(`removed ${options.scope} source ${name}`);
      }),
    );

  sources
    .command("catalog")
    .description("browse a source's templates before installing them")
    .argument("<name>", "the source's name")
    .addOption(scopeOption())
    .addOption(sourceScopeOption())
    .option("--refresh", "ask the marketplace again instead of using the server's cached copy")
    .action(
      action(async (context, name: string, options: CatalogOptions) => {
        const api = await context.connect();
        const params = { path: { name }, query: { source_scope: options.sourceScope, refresh: options.refresh ?? false } };
        const catalog = await api.call(api.client.GET(scoped(options.scope, "/ext/svc/me/template-sources/{name}/catalog"), { params }));
        if (context.json) return printJson(catalog);
        printLines(`${catalog.source.scope} source ${catalog.source.name} (${catalog.source.url})`, "");
        printTable(
          ["ID", "REVISION", "CATEGORY", "INSTALLED AS", "NAME / PROBLEM"],
          catalog.templates.map((entry) => [
            entry.id,
            entry.revision,
            entry.category,
            entry.installed_as.join(",") || null,
            entry.problem ? `problem: ${entry.problem.status} ${entry.problem.detail}` : entry.name,
          ]),
          "the catalog is empty",
        );
      }),
    );
}
