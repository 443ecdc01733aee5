// policy get|put|delete|resolve: a bank's policy document.
import type { Command } from "commander";
import type { Schemas } from "../../client";
import type { Api } from "../api";
import { action, type Context, ifNoneMatchOption, reportNotModified } from "../context";
import { editJson } from "../editor";
import { CliFailure, usageError } from "../errors";
import { isObject, readJsonFile } from "../input";
import { printJson, printLines } from "../output";

/** Stores the policy, only if it is still at the version read (`ifMatch`) or, with `ifNoneMatch: "*"`, does not exist yet. */
function putPolicy(api: Api, bankId: string, document: unknown, version: string | { ifMatch?: string; ifNoneMatch?: "*" } | undefined) {
  const conditions = typeof version === "string" ? { ifMatch: version } : (version ?? {});
  return api.call(
    api.client.PUT("/ext/svc/banks/{bank_id}/policy", {
      params: { path: { bank_id: bankId } },
      // The server validates the document and answers 422 with each field's problem.
      body: { document: document as Schemas["PolicyDocument"] },
      ...conditions,
    }),
    { what: `the policy of bank ${bankId}`, readAgain: `bank-templates policy get ${bankId}` },
  );
}

function reportStored(context: Context, stored: Schemas["BankPolicy"]): void {
  if (context.json) printJson(stored);
  else printLines(`stored the policy of bank ${stored.bank_id}`);
}

export function registerPolicyCommands(program: Command): void {
  const policy = program.command("policy").description("per-bank policy documents");

  policy
    .command("get")
    .description("print a bank's policy document")
    .argument("<bank_id>", "the bank's id")
    .addOption(ifNoneMatchOption())
    .action(
      action(async (context, bankId: string, options: { ifNoneMatch?: string }) => {
        const api = await context.connect();
        const read = await api.versioned(
          api.client.GET("/ext/svc/banks/{bank_id}/policy", { params: { path: { bank_id: bankId } }, ifNoneMatch: options.ifNoneMatch }),
        );
        if (read.notModified) return reportNotModified(context, `the policy of bank ${bankId}`, { bank_id: bankId }, read.etag);
        // The document itself without --json, so that `policy get x > p.json; policy put y -f p.json` works;
        // with --json the answer and its ETag, which `policy put -f` sends back as If-Match.
        printJson(context.json ? { ...read.data, etag: read.etag } : read.data.document);
      }),
    );

  policy
    .command("put")
    .description("store a bank's policy document, replacing the one it had")
    .argument("<bank_id>", "the bank's id")
    .requiredOption(
      "-f, --file <file>",
      "the policy document (JSON; `-` reads stdin), or {document, etag} as `policy get --json` prints it (then written only if the policy is still that version)",
    )
    .option("--if-match <etag>", "write only if the policy is still at this version (its ETag, as `policy get --json` prints it)")
    .option("--force", "write whatever the current version (ignore the file's etag)")
    .action(
      action(async (context, bankId: string, options: { file: string; ifMatch?: string; force?: boolean }) => {
        if (options.force && options.ifMatch) throw usageError("Give --if-match or --force, not both");
        const content = await readJsonFile(options.file);
        const wrapped = isObject(content) && "document" in content;
        const document = wrapped ? content.document : content;
        // The etag of `policy get --json`'s output, when it is this bank's: the version the edit was made from.
        const read = wrapped && typeof content.etag === "string" && (content.bank_id ?? bankId) === bankId ? content.etag : undefined;
        const api = await context.connect();
        reportStored(context, await putPolicy(api, bankId, document, options.force ? undefined : (options.ifMatch ?? read)));
      }),
    );

  policy
    .command("edit")
    .description("edit a bank's policy document in $VISUAL or $EDITOR; written only if nobody changed it meanwhile")
    .argument("<bank_id>", "the bank's id")
    .option("--force", "write even if someone else changed the policy while you edited it (their change is lost)")
    .action(
      action(async (context, bankId: string, options: { force?: boolean }) => {
        const api = await context.connect();
        const params = { path: { bank_id: bankId } };
        const read = await api.versioned(api.client.GET("/ext/svc/banks/{bank_id}/policy", { params })).catch((error) => {
          // No policy yet: start from an empty document, and create it only if nobody else did meanwhile.
          if (error instanceof CliFailure && error.problem.status === 404) return null;
          throw error;
        });
        const current = read && !read.notModified ? read.data.document : { version: "2026-03-24" };
        const edit = await editJson(current, `policy-${bankId}`);
        if (!edit) return context.json ? printJson({ bank_id: bankId, changed: false }) : printLines("no changes: nothing was written");
        const version = read ? { ifMatch: read.etag } : { ifNoneMatch: "*" as const };
        reportStored(context, await edit.save((edited) => putPolicy(api, bankId, edited, options.force ? {} : version)));
      }),
    );

  policy
    .command("delete")
    .description("delete a bank's policy document")
    .argument("<bank_id>", "the bank's id")
    .action(
      action(async (context, bankId: string) => {
        const api = await context.connect();
        await api.call(api.client.DELETE("/ext/svc/banks/{bank_id}/policy", { params: { path: { bank_id: bankId } } }));
        if (context.json) return printJson({ bank_id: bankId, deleted: true });
        printLines(`deleted the policy of bank ${bankId}`);
      }),
    );

  policy
    .command("resolve")
    .description("show the strategy and public access that apply in one context")
    .argument("<bank_id>", "the bank's id")
    .option("--provider <provider>", "provider of the request context")
    .option("--channel <channel>", "channel of the request context")
    .option("--topic <topic>", "topic of the request context")
    .action(
      action(async (context, bankId: string, options: { provider?: string; channel?: string; topic?: string }) => {
        const api = await context.connect();
        const resolved = await api.call(
          api.client.GET("/ext/svc/banks/{bank_id}/policy/resolve", { params: { path: { bank_id: bankId }, query: options } }),
        );
        if (context.json) return printJson(resolved);
        const access = resolved.public_access;
        printLines(
          `strategy: ${resolved.strategy ?? "(none)"}`,
          access
            ? `public access: ${access.actions.join(", ")}; recall budget ${access.recall_budget ?? "-"}; recall max tokens ${access.recall_max_tokens ?? "-"}`
            : "public access: none",
        );
      }),
    );
}
