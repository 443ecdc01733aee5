import { invalidField, notFound } from "@/lib/contracts/errors";
import type { OwnerScope } from "@/lib/contracts/scope";
import { TEMPLATE_ID_PATTERN } from "@/lib/contracts/templates/schemas";
import type { ServiceContext } from "@/lib/services/context";
import { findTemplate, type TemplateRow } from "@/lib/services/templates/templates";

const REF = /^(?:(personal|server)\/)?([^/]*)$/;

/**
 * Resolves a bank-creation template ref (CONTRACT §8): `personal/{id}`, `server/{id}`, or a
 * bare id meaning the caller's personal template, else the server one. 422 for other forms,
 * 404 when there is no such template (another user's personal one included).
 */
export async function resolveTemplateRef(ctx: ServiceContext, { ref }: { ref: string }): Promise<{ ref: string; row: TemplateRow }> {
  const match = REF.exec(ref);
  if (!match || !TEMPLATE_ID_PATTERN.test(match[2]!)) {
    throw invalidField("template", "must be personal/{id}, server/{id} or a template id");
  }
  const [, scopeName, id] = match as unknown as [string, "personal" | "server" | undefined, string];
  const personal: OwnerScope = { kind: "personal", owner: ctx.actor.userId };
  const server: OwnerScope = { kind: "server", owner: null };
  const candidates = scopeName === "personal" ? [personal] : scopeName === "server" ? [server] : [personal, server];
  for (const scope of candidates) {
    const row = await findTemplate(ctx.db, scope, id);
    if (row) return { ref: `${scope.kind}/${id}`, row };
  }
  throw notFound(`No template ${ref} is available to you.`);
}
