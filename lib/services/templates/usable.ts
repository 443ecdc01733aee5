import "server-only";
import { and, asc, eq, isNull, or, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import { templates } from "@/db/schema";
import { invalidField } from "@/lib/contracts/errors";
import { type ScopeKind, scopeOf } from "@/lib/contracts/scope";
import type { ListTemplatesQuery } from "@/lib/contracts/templates/schemas";
import { decodeCursor, encodeCursor } from "@/lib/platform/cursor";
import type { Actor, ServiceContext } from "@/lib/services/context";
import { getTemplate, presentTemplate } from "./templates";

/**
 * What any actor may use (CONTRACT §13): its user's personal templates and every server
 * template, so members can see and use what admins publish without admin rights.
 */
const usableBy = (actor: Actor) =>
  or(and(eq(templates.scope, "personal"), eq(templates.owner, actor.userId)), and(eq(templates.scope, "server"), isNull(templates.owner)))!;

// personal sorts before server: the first element of the keyset.
const scopeRank = sql<number>`(case ${templates.scope} when 'personal' then 0 else 1 end)`;

/** GET P/templates: sorted by scope (personal first) then id, with the filters and paging of §7. */
export async function listUsableTemplates(ctx: ServiceContext, { query }: { query: z.output<typeof ListTemplatesQuery> }) {
  const { db, actor } = ctx;
  const cursorKey = ctx.app.secretKey;
  if (query.cursor !== undefined && query.limit === undefined) throw invalidField("cursor", "needs limit");
  const context = JSON.stringify(["usable", actor.userId, query.category ?? null, query.tag ?? null]);
  const filters: SQL[] = [usableBy(actor)];
  if (query.category !== undefined) filters.push(eq(templates.category, query.category));
  if (query.tag !== undefined) filters.push(sql`${templates.tags} @> array[${query.tag}]::text[]`);
  if (query.cursor !== undefined) {
    const [rank, id] = JSON.parse(decodeCursor(cursorKey, query.cursor, context)) as [number, string];
    filters.push(sql`(${scopeRank}, ${templates.id}) > (${rank}, ${id})`);
  }
  const base = db
    .select()
    .from(templates)
    .where(and(...filters))
    .orderBy(scopeRank, asc(templates.id));
  if (query.limit === undefined) return { templates: (await base).map(presentTemplate) };
  const rows = await base.limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  const next = rows.length > query.limit && last ? JSON.stringify([last.scope === "personal" ? 0 : 1, last.id]) : null;
  return { templates: page.map(presentTemplate), next_cursor: next ? encodeCursor(cursorKey, next, context) : null };
}

/** GET P/templates/{personal|server}/{id}: one the caller may use; 404 otherwise. */
export function getUsableTemplate(ctx: ServiceContext, { kind, templateId }: { kind: ScopeKind; templateId: string }) {
  return getTemplate(ctx, { scope: scopeOf(kind, ctx.actor), templateId });
}
