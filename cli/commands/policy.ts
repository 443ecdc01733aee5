// policy get|put|delete|resolve: a bank's policy document.
import type { Command } from "commander";
import type { Schemas } from "../../client";
import { action } from "../context";
import { isObject, readJsonFile } from "../input";
import { printJson, printLines } from "../output";

export function registerPolicyCommands(program: Command): void {
  const policy = program.command("policy").description("per-bank policy documents");

  policy
    .command("get")
    .description("print a bank's policy document")
    .argument("<bank_id>", "the bank's id")
    .action(
      action(async (context, bankId: string) => {
        const api = await context.connect();
        const stored = await api.call(api.client.GET("/ext/svc/banks/{bank_id}/policy", { params: { path: { bank_id: bankId } } }));
        // The document itself without --json, so that `policy get x > p.json; policy put y -f p.json` works.
        printJson(context.json ? stored : stored.document);
      }),
    );

  policy
    .command("put")
    .description("store a bank's policy document, replacing the one it had")
    .argument("<bank_id>", "the bank's id")
    .requiredOption("-f, --file <file>", "the policy document (JSON; `-` reads stdin), or {document} as `policy get --json` prints it")
    .action(
      action(async (context, bankId: string, options: { file: string }) => {
        const content = await readJsonFile(options.file);
        const document = isObject(content) && "document" in content ? content.document : content;
        const api = await context.connect();
        const stored = await api.call(
          api.client.PUT("/ext/svc/banks/{bank_id}/policy", {
            params: { path: { bank_id: bankId } },
            // The server validates the document and answers 422 with each field's problem.
            body: { document: document as Schemas["PolicyDocument"] },
          }),
        );
        if (context.json) return printJson(stored);
        printLines(`stored the policy of bank ${stored.bank_id}`);
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
