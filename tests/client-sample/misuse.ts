// Calls the generated types must refuse; each line fails to compile without its @ts-expect-error,
// so tests/client-sdk.test.ts (which type-checks this file) fails when the document types a field wrong.
import type { BankTemplatesClient } from "../../client";

export async function misuse(client: BankTemplatesClient) {
  // @ts-expect-error force is a boolean, not the text a query string carries
  await client.POST("/ext/svc/me/templates/{template_id}/update", { params: { path: { template_id: "x" }, query: { force: "true" } } });
  // @ts-expect-error dry_run is a boolean
  await client.POST("/ext/svc/banks", { params: { query: { dry_run: "false" } }, body: { bank_id: "b", template: "t" } });
  // @ts-expect-error refresh is a boolean
  await client.GET("/ext/svc/me/template-sources/{name}/catalog", { params: { path: { name: "acme" }, query: { refresh: 1 } } });
  // @ts-expect-error bank_id is required
  await client.POST("/ext/svc/banks", { body: { template: "t" } });
  // @ts-expect-error null stands for "absent" only where a field may be absent: a required bank_id cannot be null
  await client.POST("/ext/svc/banks", { body: { bank_id: null, template: "t" } });
  // @ts-expect-error a PATCH may send null for name (it leaves the name as it is, CONTRACT §15), never another type
  await client.PATCH("/ext/svc/me/templates/{template_id}", { params: { path: { template_id: "x" } }, body: { name: 5 } });
}
