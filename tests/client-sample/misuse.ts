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
  const bank = { path: { bank_id: "b" } };
  // @ts-expect-error a read takes no If-Match (it sends If-None-Match to be answered 304)
  await client.GET("/ext/svc/banks/{bank_id}/policy", { params: bank, ifMatch: '"tag"' });
  // @ts-expect-error a policy PUT takes If-None-Match only as `*` (create only)
  await client.PUT("/ext/svc/banks/{bank_id}/policy", { params: bank, body: { document: {} as never }, ifNoneMatch: '"tag"' });
  // @ts-expect-error validating a manifest writes nothing, so it takes no precondition
  await client.POST("/ext/svc/manifests/validate", { body: { manifest: {} }, ifMatch: '"tag"' });
  // The data of an answer to a read without ifNoneMatch is there once the error is ruled out: no 304 to expect.
  const plain = await client.GET("/ext/svc/banks/{bank_id}/policy", { params: bank });
  if (!plain.error) plain.data.document satisfies object;
  const polled = await client.GET("/ext/svc/banks/{bank_id}/policy", { params: bank, ifNoneMatch: '"tag"' });
  // @ts-expect-error with ifNoneMatch the answer may be a 304 without data
  if (!polled.error) polled.data.document satisfies object;
}
