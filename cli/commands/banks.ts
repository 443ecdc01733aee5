// banks create|list|show|history|edit|restore|export|rollout.
import { writeFile } from "node:fs/promises";
import type { Command } from "commander";
import { editDid, restoredWhat } from "@/lib/contracts/banks/edit-words";
import { plural } from "@/lib/shared/plural";
import type { Schemas } from "../../client";
import { bulkExitCode } from "../bulk";
import { action } from "../context";
import { usageError } from "../errors";
import { isObject, readJsonFile } from "../input";
import { formatValue, printJson, printLines, printProblem, printTable, warn } from "../output";

interface EditOptions {
  mentalModel?: string;
  directive?: string;
  config?: boolean;
  name?: string;
  removeMentalModel?: string;
  removeDirective?: string;
  file?: string;
}

interface CreateOptions {
  template: string;
  name?: string;
  dryRun?: boolean;
}

interface RolloutOptions {
  bank?: string[];
  dryRun?: boolean;
  merge?: boolean;
  resolutions?: string;
}

/** A rollout's resolutions from a JSON file: a list, or an object holding `resolutions` (as a request body would). */
async function readResolutions(file: string): Promise<Schemas["MergeResolution"][]> {
  const read = await readJsonFile(file);
  const list = isObject(read) && Array.isArray(read.resolutions) ? read.resolutions : read;
  if (!Array.isArray(list)) throw usageError(`${file} must hold a JSON list of resolutions [{path, take, value?}].`);
  return list as Schemas["MergeResolution"][];
}

export function registerBankCommands(program: Command): void {
  const banks = program.command("banks").description("banks created from templates");

  banks
    .command("create")
    .description("create a bank from a template, or apply a template to an existing bank; --dry-run shows the changes and writes nothing")
    .argument("<bank_id>", "the bank's id")
    .requiredOption("--template <ref>", "personal/<id> or server/<id> (a bare <id>: yours, else the server's)")
    .option("--name <name>", "display name (default: the bank id for a new bank; renames an existing one)")
    .option("--dry-run", "compute and print what the import would change, without writing")
    .action(
      action(async (context, bankId: string, options: CreateOptions) => {
        const api = await context.connect();
        const result = await api.call(
          api.client.POST("/ext/svc/banks", {
            params: { query: { dry_run: options.dryRun ?? false } },
            body: { bank_id: bankId, template: options.template, name: options.name ?? null },
          }),
        );
        if (context.json) return printJson(result);
        const what = result.import_result.dry_run
          ? `dry run: applying ${result.template} to bank ${result.bank_id} would make these changes (nothing was written)`
          : result.bank_created
            ? `created bank ${result.bank_id} from ${result.template}`
            : `applied ${result.template} to bank ${result.bank_id}`;
        printLines(what, ...describeChanges(result.changes));
      }),
    );

  banks
    .command("list")
    .description("list the banks you can see (admins: all); --template keeps those last applied from that template")
    .option("--template <ref>", "only banks last applied from this template (personal/<id> or server/<id>)")
    .action(
      action(async (context, options: { template?: string }) => {
        const api = await context.connect();
        const list = await api.call(api.client.GET("/ext/svc/banks", { params: { query: { template: options.template } } }));
        if (context.json) return printJson(list);
        printTable(
          ["BANK", "NAME", "OWNER", "LAST TEMPLATE", "VERSION", "APPLIED AT", "BEHIND"],
          list.banks.map((bank) => [
            bank.bank_id,
            bank.name,
            bank.owner,
            bank.last_applied?.template,
            bank.last_applied?.template_version,
            bank.last_applied?.applied_at,
            bank.behind ? "yes" : "no",
          ]),
          "no banks",
        );
      }),
    );

  banks
    .command("show")
    .description("show a bank: config, mental models, directives, last template applied")
    .argument("<bank_id>", "the bank's id")
    .action(
      action(async (context, bankId: string) => {
        const api = await context.connect();
        const bank = await api.call(api.client.GET("/ext/svc/banks/{bank_id}", { params: { path: { bank_id: bankId } } }));
        if (context.json) return printJson(bank);
        const applied = bank.last_applied;
        printLines(
          `${bank.bank_id}: ${bank.name} (owner ${bank.owner ?? "-"}, policy: ${bank.has_policy ? "yes" : "no"})`,
          `last applied: ${applied ? describeApplied(applied) : "never"}${bank.behind ? ` (behind: ${describeNewest(bank.newest_version)})` : ""}`,
          "config:",
          ...Object.entries(bank.config).map(([field, value]) => `  ${field}: ${formatValue(value)}`),
          `mental models: ${bank.mental_models.map((model) => String(model.id)).join(", ") || "-"}`,
          `directives: ${bank.directives.map((directive) => String(directive.name)).join(", ") || "-"}`,
        );
      }),
    );

  banks
    .command("history")
    .description("list the templates applied to a bank and the changes of its policy, newest first")
    .argument("<bank_id>", "the bank's id")
    .action(
      action(async (context, bankId: string) => {
        const api = await context.connect();
        const history = await api.call(api.client.GET("/ext/svc/banks/{bank_id}/history", { params: { path: { bank_id: bankId } } }));
        if (context.json) return printJson(history);
        printTable(
          ["AT", "WHAT", "REVISION", "ACTOR"],
          history.entries.map((entry) =>
            entry.kind === "import"
              ? [entry.applied_at, entry.template, entry.source_revision, entry.actor]
              : entry.kind === "edit"
                ? [entry.at, `edited: ${editDid(entry)}`, null, entry.actor]
                : entry.kind === "restore"
                  ? [entry.at, `restored: ${restoredWhat(entry)}`, null, entry.actor]
                  : [entry.at, entry.after === null ? "policy deleted" : "policy changed", null, entry.actor],
          ),
          "no template was applied and no policy set yet",
        );
      }),
    );

  banks
    .command("edit")
    .description(
      "edit a bank in place: put one mental model or directive (--file: the entry without its id or name), change its config (--config --file: the fields to set, null back to the server's default) or --name, or remove one entry",
    )
    .argument("<bank_id>", "the bank's id")
    .option("--mental-model <id>", "create or replace this mental model with the one in --file")
    .option("--directive <name>", "create or replace this directive with the one in --file")
    .option("--config", "set the config fields in --file (a field set to null returns to the server's default)")
    .option("--name <name>", "rename the bank (with --config or alone)")
    .option("--remove-mental-model <id>", "remove this mental model from the bank")
    .option("--remove-directive <name>", "remove this directive from the bank")
    .option("-f, --file <file>", "the JSON to write (`-` reads stdin)")
    .action(
      action(async (context, bankId: string, options: EditOptions) => {
        const edit = await editRequest(options);
        const api = await context.connect();
        const bank_id = bankId;
        const bank = await api.call(
          edit.kind === "patch"
            ? api.client.PATCH("/ext/svc/banks/{bank_id}", { params: { path: { bank_id } }, body: edit.body as never })
            : edit.kind === "mental-model"
              ? api.client.PUT("/ext/svc/banks/{bank_id}/mental-models/{id}", {
                  params: { path: { bank_id, id: edit.key } },
                  body: edit.body as never,
                })
              : edit.kind === "directive"
                ? api.client.PUT("/ext/svc/banks/{bank_id}/directives/{name}", {
                    params: { path: { bank_id, name: edit.key } },
                    body: edit.body as never,
                  })
                : edit.kind === "remove-mental-model"
                  ? api.client.DELETE("/ext/svc/banks/{bank_id}/mental-models/{id}", { params: { path: { bank_id, id: edit.key } } })
                  : api.client.DELETE("/ext/svc/banks/{bank_id}/directives/{name}", { params: { path: { bank_id, name: edit.key } } }),
        );
        if (context.json) return printJson(bank);
        printLines(
          `edited bank ${bank.bank_id}: ${edit.did}${bank.locally_modified ? " (the bank now differs from what its template wrote)" : ""}`,
        );
      }),
    );

  banks
    .command("restore")
    .description(
      "put back a bank's config, mental models and directives as they were right after an entry of its history (see banks history --json for ids); --dry-run shows the changes and writes nothing",
    )
    .argument("<bank_id>", "the bank's id")
    .argument("<entry>", "the id of an import, edit or restore entry of the bank's history")
    .option("--dry-run", "compute and print what the restore would change, without writing")
    .action(
      action(async (context, bankId: string, entry: string, options: { dryRun?: boolean }) => {
        const api = await context.connect();
        const result = await api.call(
          api.client.POST("/ext/svc/banks/{bank_id}/restore", {
            params: { path: { bank_id: bankId }, query: { dry_run: options.dryRun ?? false } },
            body: { entry },
          }),
        );
        if (context.json) return printJson(result);
        const what = result.dry_run
          ? `dry run: restoring bank ${bankId} to entry ${entry} would make these changes (nothing was written)`
          : `restored bank ${bankId} to entry ${entry}`;
        printLines(what, ...describeChanges(result.changes));
      }),
    );

  banks
    .command("rollout")
    .description(
      "apply a template's current version to banks made from it: those named with --bank, else every bank of yours that is behind it; --dry-run writes nothing",
    )
    .argument("<template>", "personal/<id> or server/<id> (a bare <id>: yours, else the server's)")
    .option("--bank <bank_id>", "a bank to roll out to (repeat for several; in this order)", (id: string, ids: string[] = []) => [
      ...ids,
      id,
    ])
    .option("--dry-run", "compute what each bank would change, without writing")
    .option("--merge", "keep each bank's own edits: merge three ways; a bank whose edits conflict fails with its conflicts")
    .option("--resolutions <file>", "with --merge: a JSON file of [{path, take: local|upstream|value, value?}] resolving conflicts")
    .action(
      action(async (context, template: string, options: RolloutOptions) => {
        const api = await context.connect();
        const dryRun = options.dryRun ?? false;
        // One request does every bank: a terminal gets a line while it runs, the results after.
        if (process.stderr.isTTY) {
          const which = options.bank ? plural(options.bank.length, "bank") : "the banks behind it";
          warn(`${dryRun ? "previewing" : "rolling out"} ${template} to ${which}…`);
        }
        const answer = await api.call(
          api.client.POST("/ext/svc/banks/rollout", {
            params: { query: { dry_run: dryRun } },
            body: {
              template,
              ...(options.bank ? { bank_ids: options.bank } : {}),
              ...(options.merge ? { merge: true } : {}),
              ...(options.resolutions ? { resolutions: await readResolutions(options.resolutions) } : {}),
            },
          }),
        );
        if (context.json) printJson(answer);
        else reportRollout(answer.results, dryRun);
        return bulkExitCode(answer.results);
      }),
    );

  banks
    .command("export")
    .description("export a bank as a manifest that reproduces it in a new bank")
    .argument("<bank_id>", "the bank's id")
    .option("-o, --output <file>", "write the manifest to this file instead of stdout")
    .action(
      action(async (context, bankId: string, options: { output?: string }) => {
        const api = await context.connect();
        const manifest = await api.call(api.client.GET("/ext/svc/banks/{bank_id}/export", { params: { path: { bank_id: bankId } } }));
        if (!options.output) return printJson(manifest);
        try {
          await writeFile(options.output, `${JSON.stringify(manifest, null, 2)}\n`);
        } catch (error) {
          throw usageError(`Cannot write ${options.output}: ${(error as Error).message}`);
        }
        if (context.json) printJson({ bank_id: bankId, output: options.output });
        else printLines(`exported bank ${bankId} to ${options.output}`);
      }),
    );
}

type EditRequest =
  | { kind: "patch"; body: Record<string, unknown>; did: string }
  | { kind: "mental-model" | "directive"; key: string; body: unknown; did: string }
  | { kind: "remove-mental-model" | "remove-directive"; key: string; did: string };

/** The one edit `banks edit`'s options ask for, its file read; a usage error (exit 2) when they ask for none, or for more than one. */
async function editRequest(options: EditOptions): Promise<EditRequest> {
  const asked = [
    options.mentalModel !== undefined && "--mental-model",
    options.directive !== undefined && "--directive",
    (options.config || options.name !== undefined) && "--config/--name",
    options.removeMentalModel !== undefined && "--remove-mental-model",
    options.removeDirective !== undefined && "--remove-directive",
  ].filter((flag): flag is string => typeof flag === "string");
  if (asked.length !== 1) {
    throw usageError(
      asked.length === 0
        ? "Say what to edit: --mental-model, --directive, --config, --name, --remove-mental-model or --remove-directive"
        : `Give one edit at a time, not ${asked.join(" and ")}`,
    );
  }
  const needsFile = options.mentalModel !== undefined || options.directive !== undefined || options.config === true;
  if (needsFile && options.file === undefined) throw usageError(`${asked[0]} needs --file`);
  if (!needsFile && options.file !== undefined) throw usageError(`${asked[0]} takes no --file`);
  const body = needsFile ? await readJsonFile(options.file!) : undefined;
  if (needsFile && !isObject(body)) throw usageError(`${options.file} must hold a JSON object`);
  if (options.mentalModel !== undefined) {
    return { kind: "mental-model", key: options.mentalModel, body, did: `mental model ${options.mentalModel} put` };
  }
  if (options.directive !== undefined)
    return { kind: "directive", key: options.directive, body, did: `directive ${options.directive} put` };
  if (options.removeMentalModel !== undefined) {
    return { kind: "remove-mental-model", key: options.removeMentalModel, did: `mental model ${options.removeMentalModel} removed` };
  }
  if (options.removeDirective !== undefined) {
    return { kind: "remove-directive", key: options.removeDirective, did: `directive ${options.removeDirective} removed` };
  }
  const patch = {
    ...(options.name !== undefined ? { name: options.name } : {}),
    ...(body ? { config: body as Record<string, unknown> } : {}),
  };
  return { kind: "patch", body: patch, did: editDid({ before: {}, after: patch }) };
}

/** `server/foo version 7 (edited locally) at revision r1, <time>`. */
function describeApplied(applied: NonNullable<Schemas["BankSummary"]["last_applied"]>): string {
  const version = applied.template_version === null ? "" : ` version ${applied.template_version}`;
  const edited = applied.locally_modified ? " (edited locally)" : "";
  return `${applied.template}${version}${edited} at revision ${applied.source_revision ?? "-"}, ${applied.applied_at}`;
}

/** What a rollout would bring a bank behind: a newer version, or a rollback that takes it back to an older one. */
function describeNewest(newest: Schemas["BankSummary"]["newest_version"]): string {
  if (newest === null) return "a newer version is available";
  if (newest.action !== "rollback") return `version ${newest.version} is available`;
  const restored = newest.restored_version === null ? "an earlier version" : `version ${newest.restored_version}`;
  return `version ${newest.version} restores ${restored}; rolling it out takes this bank back`;
}

/**
 * One line per bank of a rollout, `applied`, `would apply` or `failed` with why, then the summary.
 * Each bank's failure goes to stderr in full, as a bulk command reports it.
 */
function reportRollout(results: Schemas["RolloutBankResult"][], dryRun: boolean): void {
  for (const result of results) {
    if (result.problem) printProblem(result.problem, `bank ${result.bank_id}`);
  }
  printTable(
    ["BANK", "RESULT", "WHY"],
    results.map((result) => [
      result.bank_id,
      result.applied ? (dryRun ? "would apply" : "applied") : "failed",
      result.problem ? `${result.problem.status} ${result.problem.detail}` : null,
    ]),
    "no bank is behind this template: nothing to roll out",
  );
  if (results.length === 0) return;
  const applied = results.filter((result) => result.applied).length;
  const failed = results.length - applied;
  const verb = dryRun ? "dry run: would apply" : "applied";
  printLines(`${verb} ${applied} of ${results.length}${failed ? `, ${failed} failed` : ""}`);
}

/** An import's or a restore's changes, one line each: `+` created, `~` updated, `-` removed, config fields with before → after. */
function describeChanges(changes: Schemas["ImportChanges"] | Schemas["RestoreChanges"]): string[] {
  const lines: string[] = [];
  if (changes.config.length) {
    lines.push("config:", ...changes.config.map((c) => `  ~ ${c.field}: ${formatValue(c.before)} → ${formatValue(c.after)}`));
  }
  const mark = (change: "create" | "update" | "delete") => ({ create: "+", update: "~", delete: "-" })[change];
  if (changes.mental_models.length) {
    lines.push("mental models:", ...changes.mental_models.map((m) => `  ${mark(m.change)} ${m.id} (${m.change})`));
  }
  if (changes.directives.length) {
    lines.push("directives:", ...changes.directives.map((d) => `  ${mark(d.change)} ${d.name} (${d.change})`));
  }
  return lines.length ? lines : ["no changes"];
}
