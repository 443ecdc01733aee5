// A program as a user of the typed client writes one (client/README.md): it adds a marketplace,
// installs a template, later updates it, creates a bank from it and gives the bank a policy.
// tests/client-sdk.test.ts type-checks this file against client/ and runs it against the app.
import { type BankTemplatesClient, createBankTemplatesClient, isPreconditionFailed, type Problem, type Schemas } from "../../client";

/** The answer's data, or an Error naming the problem the server answered with. */
function ok<T>({ data, error, response }: { data?: T; error?: Problem; response: Response }): T {
  if (error !== undefined || data === undefined) {
    throw new Error(`${response.status} ${error?.type ?? "no body"}: ${error?.detail ?? response.statusText}`);
  }
  return data;
}

export function connect(baseUrl: string, apiKey: string): BankTemplatesClient {
  return createBankTemplatesClient({ baseUrl, apiKey });
}

/** Registers the marketplace at `marketplaceUrl` as a personal source and installs `templateId` from it. */
export async function installFromMarketplace(
  client: BankTemplatesClient,
  { marketplaceUrl, sourceName, templateId }: { marketplaceUrl: string; sourceName: string; templateId: string },
): Promise<{ source: Schemas["Source"]; template: Schemas["Template"] }> {
  // `null` for an optional field means "not given" (CONTRACT §10), as many programs send it.
  const source = ok(
    await client.POST("/ext/svc/me/template-sources", { body: { url: marketplaceUrl, alias: sourceName, auth_token: null } }),
  );
  const template = ok(
    await client.POST("/ext/svc/me/templates/{template_id}/install", {
      params: { path: { template_id: templateId } },
      body: { source_name: source.name, alias_id: null, source_scope: "personal" },
    }),
  );
  return { source, template };
}

/** Takes the marketplace's latest `templateId`, applies it to the bank `bankId` and sets the bank's policy. */
export async function updateAndApply(
  client: BankTemplatesClient,
  { templateId, bankId }: { templateId: string; bankId: string },
): Promise<{ update: Schemas["UpdateResult"]; bank: Schemas["CreateBankResult"]; policy: Schemas["BankPolicy"] }> {
  const update = ok(
    await client.POST("/ext/svc/me/templates/{template_id}/update", {
      params: { path: { template_id: templateId }, query: { force: true } },
    }),
  );
  const bank = ok(
    await client.POST("/ext/svc/banks", {
      params: { query: { dry_run: false } },
      body: { bank_id: bankId, template: `personal/${templateId}`, name: null },
    }),
  );
  const policy = ok(
    await client.PUT("/ext/svc/banks/{bank_id}/policy", {
      params: { path: { bank_id: bankId } },
      body: {
        document: {
          version: "2026-03-24",
          default_strategy: "balanced",
          strategy_overrides: [{ scope: "channel", value: "incidents", strategy: "thorough" }],
          public_access: { default: { actions: ["bank:recall"], recall_budget: "low", recall_max_tokens: null } },
        },
      },
    }),
  );
  return { update, bank, policy };
}

type StrategyOverride = NonNullable<Schemas["PolicyDocument"]["strategy_overrides"]>[number];

/**
 * Adds a strategy override to the bank's policy without losing anyone else's change: the write
 * names the version it was made from (`ifMatch`), and when someone changed the policy meanwhile
 * (412, nothing written) it reads the policy again and makes the change anew.
 */
export async function addStrategyOverride(
  client: BankTemplatesClient,
  bankId: string,
  override: StrategyOverride,
  attempts = 5,
): Promise<{ policy: Schemas["BankPolicy"]; etag: string | undefined; conflicts: number }> {
  const params = { path: { bank_id: bankId } };
  for (let conflicts = 0; conflicts < attempts; conflicts++) {
    const read = await client.GET("/ext/svc/banks/{bank_id}/policy", { params });
    const { document } = ok(read);
    const changed = { ...document, strategy_overrides: [...(document.strategy_overrides ?? []), override] };
    const write = await client.PUT("/ext/svc/banks/{bank_id}/policy", { params, body: { document: changed }, ifMatch: read.etag });
    if (isPreconditionFailed(write)) continue; // changed since our read: read it again
    return { policy: ok(write), etag: write.etag, conflicts };
  }
  throw new Error(`the policy of ${bankId} kept changing: gave up after ${attempts} attempts`);
}

/** Reads a template again only when it changed: the ETag you hold, or the new template and its ETag. */
export async function pollTemplate(
  client: BankTemplatesClient,
  templateId: string,
  held: string | undefined,
): Promise<{ changed: false; etag: string } | { changed: true; template: Schemas["Template"]; etag: string | undefined }> {
  const answer = await client.GET("/ext/svc/me/templates/{template_id}", {
    params: { path: { template_id: templateId } },
    ifNoneMatch: held,
  });
  if (answer.notModified) return { changed: false, etag: answer.etag };
  return { changed: true, template: ok(answer), etag: answer.etag };
}
