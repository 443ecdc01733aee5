// webhooks list|add|remove|ping|deliveries|redeliver: yours (/me), or the server's (--scope server, admins).
import { type Command, Option } from "commander";
import { ALL_EVENTS, WEBHOOK_EVENT_TYPES, type WebhookEventType } from "@/lib/contracts/webhooks/events";
import { action, positiveInteger, type Scope, scoped, scopeOption } from "../context";
import { CliFailure, cliProblem, ExitCode } from "../errors";
import { printJson, printLines, printTable, warn } from "../output";

interface AddOptions {
  event: Array<WebhookEventType | typeof ALL_EVENTS>;
  description?: string;
  paused?: boolean;
  scope: Scope;
}

interface DeliveriesOptions {
  scope: Scope;
  status?: "pending" | "succeeded" | "failed";
  limit: number;
  cursor?: string;
}

/** A webhook made whose secret cannot be shown any more (a repeated answer never holds it): rotate it for a new one. */
function secretNotShown(webhookId: string, scope: Scope): CliFailure {
  const where = scope === "server" ? " --scope server" : "";
  const detail = `Webhook ${webhookId} was added, but its secret cannot be shown again: the first answer was lost and a repeated answer never holds it. Give it a new one with: bank-templates webhooks rotate-secret ${webhookId}${where}`;
  return new CliFailure(cliProblem("secret-not-shown", "Secret not shown", detail), ExitCode.refused);
}

/** A delivery attempt in a line: `failed 503 in 120 ms (attempt 2): The receiver answered 503 Service Unavailable.` */
function attemptLine(delivery: {
  status: string;
  response_status: number | null;
  duration_ms: number | null;
  attempt: number;
  error: string | null;
}) {
  const answer = delivery.response_status === null ? "" : ` ${delivery.response_status}`;
  const took = delivery.duration_ms === null ? "" : ` in ${delivery.duration_ms} ms`;
  return `${delivery.status}${answer}${took} (attempt ${delivery.attempt})${delivery.error ? `: ${delivery.error}` : ""}`;
}

const webhookPath = (id: string) => ({ path: { webhook_id: id } });

export function registerWebhookCommands(program: Command): void {
  const webhooks = program
    .command("webhooks")
    .description("webhooks: events POSTed to your receivers, signed (Standard Webhooks); --scope server for the server's (admins)");

  webhooks
    .command("list")
    .description("list webhooks")
    .addOption(scopeOption())
    .action(
      action(async (context, options: { scope: Scope }) => {
        const api = await context.connect();
        const list = await api.call(api.client.GET(scoped(options.scope, "/ext/svc/me/webhooks")));
        if (context.json) return printJson(list);
        printTable(
          ["ID", "URL", "EVENTS", "ACTIVE", "FAILING SINCE", "DESCRIPTION"],
          list.map((hook) => [
            hook.id,
            hook.url,
            hook.events.join(","),
            hook.active ? "yes" : "paused",
            hook.failing_since,
            hook.description,
          ]),
          "no webhooks",
        );
        for (const hook of list) if (hook.disabled_reason) warn(`${hook.id}: ${hook.disabled_reason}`);
      }),
    );

  webhooks
    .command("add")
    .description("add a webhook and print its signing secret, shown this once")
    .argument("<url>", "where deliveries are POSTed (its host must be public unless the server allows it)")
    .addOption(
      new Option("--event <type...>", "the event types to send; default: every type it may receive (*)")
        .choices([ALL_EVENTS, ...WEBHOOK_EVENT_TYPES])
        .default([ALL_EVENTS]),
    )
    .option("--description <text>", "what it is for (up to 1,000 characters)")
    .option("--paused", "add it paused: nothing is sent until it is resumed")
    .addOption(scopeOption())
    .action(
      action(async (context, url: string, options: AddOptions) => {
        const body = { url, events: options.event, description: options.description ?? null, active: !options.paused };
        const api = await context.connect();
        const created = await api.call(api.client.POST(scoped(options.scope, "/ext/svc/me/webhooks"), { body }));
        if (created.secret === null) throw secretNotShown(created.id, options.scope);
        if (context.json) return printJson(created);
        warn(`Added webhook ${created.id}. Its signing secret below is shown only this once; store it with the receiver now.`);
        printLines(created.secret);
      }),
    );

  webhooks
    .command("rotate-secret")
    .description("give a webhook a new secret, shown this once; the previous one signs too for 24 hours")
    .argument("<webhook_id>", "the webhook's id")
    .addOption(scopeOption())
    .action(
      action(async (context, id: string, options: { scope: Scope }) => {
        const api = await context.connect();
        const rotated = await api.call(
          api.client.POST(scoped(options.scope, "/ext/svc/me/webhooks/{webhook_id}/rotate-secret"), { params: webhookPath(id) }),
        );
        if (rotated.secret === null) throw secretNotShown(rotated.id, options.scope);
        if (context.json) return printJson(rotated);
        warn(`The new secret below is shown only this once; the previous one also signs until ${rotated.previous_secret_expires_at}.`);
        printLines(rotated.secret);
      }),
    );

  webhooks
    .command("remove")
    .description("remove a webhook and its delivery log; what it had pending is not sent")
    .argument("<webhook_id>", "the webhook's id")
    .addOption(scopeOption())
    .action(
      action(async (context, id: string, options: { scope: Scope }) => {
        const api = await context.connect();
        await api.call(api.client.DELETE(scoped(options.scope, "/ext/svc/me/webhooks/{webhook_id}"), { params: webhookPath(id) }));
        if (context.json) return printJson({ id, removed: true });
        printLines(`removed ${id}`);
      }),
    );

  webhooks
    .command("ping")
    .description("send a webhook.ping now and print how it went; exits 1 when the receiver did not take it")
    .argument("<webhook_id>", "the webhook's id")
    .addOption(scopeOption())
    .action(
      action(async (context, id: string, options: { scope: Scope }) => {
        const api = await context.connect();
        const attempt = await api.call(
          api.client.POST(scoped(options.scope, "/ext/svc/me/webhooks/{webhook_id}/ping"), { params: webhookPath(id) }),
        );
        if (context.json) printJson(attempt);
        else printLines(`${attempt.id} ${attemptLine(attempt)}`);
        return attempt.status === "succeeded" ? ExitCode.ok : ExitCode.refused;
      }),
    );

  webhooks
    .command("deliveries")
    .description("a webhook's delivery attempts of the last 30 days, newest first")
    .argument("<webhook_id>", "the webhook's id")
    .addOption(new Option("--status <status>", "only attempts in this status").choices(["pending", "succeeded", "failed"]))
    .option("--limit <n>", "attempts per page (1-200)", positiveInteger("--limit"), 50)
    .option("--cursor <cursor>", "the page after the one that printed this cursor")
    .addOption(scopeOption())
    .action(
      action(async (context, id: string, options: DeliveriesOptions) => {
        const api = await context.connect();
        const query = { limit: options.limit, status: options.status, cursor: options.cursor };
        const page = await api.call(
          api.client.GET(scoped(options.scope, "/ext/svc/me/webhooks/{webhook_id}/deliveries"), { params: { ...webhookPath(id), query } }),
        );
        if (context.json) return printJson(page);
        printTable(
          ["ID", "AT", "TYPE", "ATTEMPT", "STATUS", "RESPONSE", "MS", "ERROR"],
          page.deliveries.map((d) => [d.id, d.at, d.type, d.attempt, d.status, d.response_status, d.duration_ms, d.error]),
          "no deliveries in the last 30 days",
        );
        if (page.next_cursor) warn(`more: --cursor ${page.next_cursor}`);
      }),
    );

  webhooks
    .command("redeliver")
    .description("send a delivery's event again, soon (one attempt); prints the attempt, pending")
    .argument("<webhook_id>", "the webhook's id")
    .argument("<delivery_id>", "the delivery (attempt) whose event to send again")
    .addOption(scopeOption())
    .action(
      action(async (context, id: string, deliveryId: string, options: { scope: Scope }) => {
        const api = await context.connect();
        const queued = await api.call(
          api.client.POST(scoped(options.scope, "/ext/svc/me/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver"), {
            params: { path: { webhook_id: id, delivery_id: deliveryId } },
          }),
        );
        if (context.json) return printJson(queued);
        printLines(`${queued.id} ${queued.status} (attempt ${queued.attempt} of event ${queued.event_id})`);
      }),
    );
}
