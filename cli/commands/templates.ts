// templates list|show|install|update|check|versions|rollback|delete|validate.
import type { Command } from "commander";
import type { Schemas } from "../../client";
import type { Api } from "../api";
import { bulkExitCode, reportBulk, runBulk } from "../bulk";
import {
  action,
  ifNoneMatchOption,
  positiveInteger,
  reportNotModified,
  type Scope,
  scoped,
  scopeOption,
  sourceScopeOption,
} from "../context";
import { editJson } from "../editor";
import { CliFailure, ExitCode, exitCodeFor, type ProblemReport, usageError } from "../errors";
import { isObject, readJsonFile } from "../input";
import { printJson, printLines, printTable, problemHeadline, warn } from "../output";

type Template = Schemas["Template"];
/**
 * A row of the API's bulk check (POST …/check-updates); `templates check <ids>` answers the same,
 * where a failed check's problem may also be the CLI's own (the server unreachable).
 */
type CheckResult = Omit<Schemas["CheckUpdatesResult"]["results"][number], "problem"> & { problem: ProblemReport | null };

/** Requests at once in install and update; the server single-flights catalog fetches, so more gains little. */
const DEFAULT_CONCURRENCY = 4;

const concurrencyOption = (command: Command) =>
  command.option("--concurrency <n>", "requests at once", positiveInteger("--concurrency"), DEFAULT_CONCURRENCY);

/** install and update take template ids or --all, exactly one of them. */
function requireIdsOrAll(ids: string[], all: boolean | undefined, verb: "install" | "update") {
  if (all && ids.length) throw usageError("Give template ids or --all, not both");
  if (!all && !ids.length) throw usageError(`Give the template ids to ${verb}, or --all`);
}

interface InstallOptions {
  all?: boolean;
  alias?: string;
  scope: Scope;
  sourceScope?: Scope;
  concurrency: number;
}

interface UpdateOptions {
  all?: boolean;
  force?: boolean;
  merge?: boolean;
  scope: Scope;
  concurrency: number;
}

export function registerTemplateCommands(program: Command): void {
  const templates = program.command("templates").description("installed templates");

  templates
    .command("list")
    .description("list templates: without --scope every template you can use, yours and the server's")
    .addOption(scopeOption(null))
    .option("--category <category>", "only this category")
    .option("--tag <tag>", "only templates with this tag")
    .action(
      action(async (context, options: { scope?: Scope; category?: string; tag?: string }) => {
        const api = await context.connect();
        const params = { query: { category: options.category, tag: options.tag } };
        const list = await api.call(
          options.scope === "server"
            ? api.client.GET("/ext/svc/admin/templates", { params })
            : options.scope === "personal"
              ? api.client.GET("/ext/svc/me/templates", { params })
              : api.client.GET("/ext/svc/templates", { params }),
        );
        if (context.json) return printJson(list);
        printTable(
          ["ID", "SCOPE", "SOURCE", "REVISION", "UPDATE", "NAME"],
          list.templates.map((template) => [
            template.id,
            template.scope,
            template.source_name,
            template.source_revision,
            updateStatus(template),
            template.name,
          ]),
          "no templates",
        );
      }),
    );

  templates
    .command("show")
    .description("show one template and its manifest")
    .argument("<id>", "the template's id")
    .addOption(scopeOption())
    .addOption(ifNoneMatchOption())
    .action(
      action(async (context, id: string, options: { scope: Scope; ifNoneMatch?: string }) => {
        const api = await context.connect();
        // The /templates path lets members read server templates too (the /admin path would not).
        const read = await api.versioned(
          api.client.GET("/ext/svc/templates/{scope}/{template_id}", {
            params: { path: { scope: options.scope, template_id: id } },
            ifNoneMatch: options.ifNoneMatch,
          }),
        );
        if (read.notModified) return reportNotModified(context, `${options.scope} template ${id}`, { id, scope: options.scope }, read.etag);
        const template = read.data;
        if (context.json) return printJson({ ...template, etag: read.etag });
        printLines(
          `${template.scope}/${template.id}: ${template.name}`,
          ...(template.description ? [template.description] : []),
          `category: ${template.category ?? "-"}   tags: ${template.tags.join(", ") || "-"}   integrations: ${template.integrations.join(", ") || "-"}`,
          `source: ${template.source_name ? `${template.source_scope}/${template.source_name} at ${template.source_revision}` : "none (made by hand)"}` +
            `${template.locally_modified ? ", edited locally" : ""}; update: ${updateStatus(template)}`,
          `installed ${template.installed_at}, updated ${template.updated_at}`,
          "manifest:",
          JSON.stringify(template.manifest, null, 2),
        );
      }),
    );

  templates
    .command("edit")
    .description("edit a template's manifest in $VISUAL or $EDITOR; written only if nobody changed the template meanwhile")
    .argument("<id>", "the template's id")
    .addOption(scopeOption())
    .option("--force", "write even if someone else changed the template while you edited it (their change is lost)")
    .action(
      action(async (context, id: string, options: { scope: Scope; force?: boolean }) => {
        const api = await context.connect();
        const path = scoped(options.scope, "/ext/svc/me/templates/{template_id}");
        const params = { path: { template_id: id } };
        const read = await api.versioned(api.client.GET(path, { params }));
        if (read.notModified) throw new Error("a read without If-None-Match was answered 304");
        const edit = await editJson(read.data.manifest, `template-${id}`);
        if (!edit)
          return context.json ? printJson({ id, scope: options.scope, changed: false }) : printLines("no changes: nothing was written");
        const template = await edit.save((edited) =>
          api.call(
            api.client.PATCH(path, {
              params,
              body: { manifest: edited as Template["manifest"] },
              ifMatch: options.force ? undefined : read.etag,
            }),
            { what: `${options.scope} template ${id}`, readAgain: `bank-templates templates show ${id} --scope ${options.scope}` },
          ),
        );
        if (context.json) return printJson(template);
        printLines(`stored the manifest of ${template.scope} template ${id}`);
      }),
    );

  concurrencyOption(
    templates
      .command("install")
      .description("install templates from a source: several ids at once, or --all of its catalog")
      .argument("<source>", "the source's name")
      .argument("[ids...]", "template ids in the source's catalog")
      .option("--all", "every template of the source's catalog (those already installed under their id are skipped)")
      .option("--alias <id>", "install under this id instead (one template only)")
      .addOption(scopeOption())
      .addOption(sourceScopeOption()),
  ).action(
    action(async (context, source: string, ids: string[], options: InstallOptions) => {
      requireIdsOrAll(ids, options.all, "install");
      if (options.alias && (options.all || ids.length > 1)) throw usageError("--alias installs one template; give exactly one id");
      const api = await context.connect();
      // Entries the catalog already settles still take their progress step: those installed
      // under their own id are skipped, those it cannot serve (`problem`) fail without a request.
      const settled = new Map<string, ProblemReport | "installed">();
      if (options.all) {
        const catalog = await fetchCatalog(api, source, options);
        ids = catalog.templates.map((entry) => entry.id);
        for (const entry of catalog.templates) {
          if (entry.problem) settled.set(entry.id, entry.problem);
          else if (entry.installed_as.includes(entry.id)) settled.set(entry.id, "installed");
        }
      }
      const results = await runBulk(ids, { label: "installing", concurrency: options.concurrency }, async (id) => {
        const known = settled.get(id);
        if (known === "installed") return { outcome: "skipped", result: null, message: `skipped ${id} (already installed)` };
        if (known) throw new CliFailure(known, exitCodeFor(known));
        const template = await install(api, id, source, options);
        return { outcome: "installed", result: template, message: `installed ${id}${template.id === id ? "" : ` as ${template.id}`}` };
      });
      return reportBulk(results, context.json);
    }),
  );

  concurrencyOption(
    templates
      .command("update")
      .description("update templates to their source's latest revision: some ids, or --all installed from a source")
      .argument("[ids...]", "installed template ids")
      .option("--all", "every template of the scope that was installed from a source")
      .option("--force", "replace local edits, and rewrite even when the revision is unchanged")
      .option("--merge", "keep local edits: merge them with the source's changes (a template where both changed the same part fails)")
      .addOption(scopeOption()),
  ).action(
    action(async (context, ids: string[], options: UpdateOptions) => {
      requireIdsOrAll(ids, options.all, "update");
      const api = await context.connect();
      // One request per template rather than the API's update-all, so that progress shows per item.
      if (options.all) ids = (await listScope(api, options.scope)).filter((template) => template.source_name !== null).map((t) => t.id);
      const results = await runBulk(ids, { label: "updating", concurrency: options.concurrency }, async (id) => {
        const params = { path: { template_id: id }, query: { force: options.force ?? false, merge: options.merge ?? false } };
        const update = await api.call(api.client.POST(scoped(options.scope, "/ext/svc/me/templates/{template_id}/update"), { params }));
        return update.updated
          ? { outcome: "updated", result: update, message: `updated ${id} (${update.previous_revision} → ${update.new_revision})` }
          : { outcome: "unchanged", result: update, message: `unchanged ${id} (already at ${update.new_revision})` };
      });
      return reportBulk(results, context.json);
    }),
  );

  templates
    .command("check")
    .description("ask the sources whether updates exist: the given ids, or every template of the scope")
    .argument("[ids...]", "installed template ids (default: all)")
    .addOption(scopeOption())
    .action(
      action(async (context, ids: string[], options: { scope: Scope }) => {
        const api = await context.connect();
        const { results } = ids.length ? await checkEach(api, ids, options.scope) : await checkAll(api, options.scope);
        if (context.json) printJson({ results });
        else {
          printTable(
            ["ID", "CURRENT", "LATEST", "STATUS"],
            results.map((r) => [
              r.id,
              r.current_revision,
              r.latest_revision,
              r.problem ? `error: ${problemHeadline(r.problem)}` : r.has_update ? "update available" : "up to date",
            ]),
            "no templates installed from a source",
          );
        }
        return bulkExitCode(results);
      }),
    );

  templates
    .command("versions")
    .description("list a template's recorded versions, or show one of them")
    .argument("<id>", "the template's id")
    .argument("[version]", "show this version's content", positiveInteger("version"))
    .addOption(scopeOption())
    .action(
      action(async (context, id: string, version: number | undefined, options: { scope: Scope }) => {
        const api = await context.connect();
        if (version !== undefined) {
          const params = { path: { template_id: id, version } };
          const detail = await api.call(
            api.client.GET(scoped(options.scope, "/ext/svc/me/templates/{template_id}/versions/{version}"), { params }),
          );
          if (context.json) return printJson(detail);
          printLines(
            `version ${detail.version} of ${id}: ${detail.action} by ${detail.actor} at ${detail.created_at}`,
            `name: ${detail.name}; source revision: ${detail.source_revision ?? "-"}${detail.locally_modified ? " (edited locally)" : ""}`,
            "manifest:",
            JSON.stringify(detail.manifest, null, 2),
          );
          return;
        }
        const params = { path: { template_id: id } };
        const list = await api.call(api.client.GET(scoped(options.scope, "/ext/svc/me/templates/{template_id}/versions"), { params }));
        if (context.json) return printJson(list);
        printTable(
          ["VERSION", "ACTION", "AT", "ACTOR", "REVISION", "EDITED"],
          list.versions.map((v) => [v.version, v.action, v.created_at, v.actor, v.source_revision, v.locally_modified ? "yes" : "no"]),
          "no versions",
        );
      }),
    );

  templates
    .command("rollback")
    .description("restore the content of an earlier version (recorded as a new version)")
    .argument("<id>", "the template's id")
    .argument("<version>", "the version to restore (see `templates versions`)", positiveInteger("version"))
    .addOption(scopeOption())
    .action(
      action(async (context, id: string, version: number, options: { scope: Scope }) => {
        const api = await context.connect();
        const params = { path: { template_id: id } };
        const body = { version };
        const template = await api.call(
          api.client.POST(scoped(options.scope, "/ext/svc/me/templates/{template_id}/rollback"), { params, body }),
        );
        if (context.json) return printJson(template);
        printLines(`rolled ${template.scope} template ${id} back to version ${version} (revision ${template.source_revision ?? "-"})`);
      }),
    );

  templates
    .command("delete")
    .description("delete an installed template and its versions")
    .argument("<id>", "the template's id")
    .addOption(scopeOption())
    .action(
      action(async (context, id: string, options: { scope: Scope }) => {
        const api = await context.connect();
        const params = { path: { template_id: id } };
        await api.call(api.client.DELETE(scoped(options.scope, "/ext/svc/me/templates/{template_id}"), { params }));
        if (context.json) return printJson({ id, scope: options.scope, deleted: true });
        printLines(`deleted ${options.scope} template ${id}`);
      }),
    );

  templates
    .command("validate")
    .description("check a manifest against the bank-template schema (exit 1 when it has errors)")
    .requiredOption(
      "-f, --file <file>",
      "the manifest (JSON; `-` reads stdin); a template or catalog entry holding one under `manifest` works too",
    )
    .action(
      action(async (context, options: { file: string }) => {
        const document = await readJsonFile(options.file);
        // A manifest has `version`; an object without one that holds `manifest` is a template around it.
        const manifest = isObject(document) && !("version" in document) && "manifest" in document ? document.manifest : document;
        const api = await context.connect();
        const validation = await api.call(api.client.POST("/ext/svc/manifests/validate", { body: { manifest } }));
        if (context.json) printJson(validation);
        else {
          printLines(validation.valid ? `${options.file}: valid` : `${options.file}: invalid`);
          for (const error of validation.errors) printLines(`  error at ${pathInManifest(error.path)}: ${error.message}`);
          for (const warning of validation.warnings) printLines(`  warning at ${pathInManifest(warning.path)}: ${warning.message}`);
        }
        if (!validation.valid) {
          if (context.json) warn(`error: ${options.file}: the manifest has ${validation.errors.length} error(s)`);
          return ExitCode.refused;
        }
      }),
    );
}

/** The API reports paths from its body's root (`manifest.version`); the file is the manifest itself. */
const pathInManifest = (path: string) => path.replace(/^manifest\.?/, "") || "(manifest)";

function updateStatus(template: Template): string {
  if (!template.source_name) return "-";
  if (!template.update_checked_at || !template.latest_revision) return "not checked";
  return template.latest_revision === template.source_revision ? "up to date" : `available (${template.latest_revision})`;
}

async function fetchCatalog(api: Api, source: string, options: InstallOptions) {
  const params = { path: { name: source }, query: { source_scope: options.sourceScope } };
  return api.call(api.client.GET(scoped(options.scope, "/ext/svc/me/template-sources/{name}/catalog"), { params }));
}

async function install(api: Api, id: string, source: string, options: InstallOptions): Promise<Template> {
  const params = { path: { template_id: id } };
  const body = { source_name: source, alias_id: options.alias ?? null, source_scope: options.sourceScope ?? null };
  return api.call(api.client.POST(scoped(options.scope, "/ext/svc/me/templates/{template_id}/install"), { params, body }));
}

async function listScope(api: Api, scope: Scope): Promise<Template[]> {
  const list = await api.call(api.client.GET(scoped(scope, "/ext/svc/me/templates")));
  return list.templates;
}

/** The API's bulk check: one request for every installed template of the scope. */
function checkAll(api: Api, scope: Scope): Promise<{ results: CheckResult[] }> {
  return api.call(api.client.POST(scoped(scope, "/ext/svc/me/templates/check-updates")));
}

/** A check per id, answered in the shape of the bulk check so that both print and parse alike. */
async function checkEach(api: Api, ids: string[], scope: Scope): Promise<{ results: CheckResult[] }> {
  const results = await Promise.all(
    ids.map(async (id): Promise<CheckResult> => {
      const params = { path: { template_id: id } };
      try {
        const check = await api.call(api.client.GET(scoped(scope, "/ext/svc/me/templates/{template_id}/check-update"), { params }));
        return {
          id,
          has_update: check.has_update,
          current_revision: check.current_revision,
          latest_revision: check.latest_revision,
          problem: null,
        };
      } catch (error) {
        if (!(error instanceof CliFailure)) throw error;
        return { id, has_update: false, current_revision: null, latest_revision: null, problem: error.problem };
      }
    }),
  );
  return { results };
}
