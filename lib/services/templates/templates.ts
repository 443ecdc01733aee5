import "server-only";
import { and, asc, eq, gt, isNull, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import { type Database, rawStatement } from "@/db/client";
import { isForeignKeyViolation, isUniqueViolation } from "@/db/errors";
import { prepared } from "@/db/prepared";
import { templates } from "@/db/schema";
import { conflict, invalidField, notFound } from "@/lib/contracts/errors";
import type { OwnerScope } from "@/lib/contracts/scope";
import type { CreateTemplateRequest, ListTemplatesQuery, PatchTemplateRequest, TemplateList } from "@/lib/contracts/templates/schemas";
import { decodeCursor, encodeCursor } from "@/lib/platform/cursor";
import { assertRoomFor } from "@/lib/services/bounds/owner-bounds";
import { type ServiceContext, withTransaction } from "@/lib/services/context";
import { checkPrecondition } from "@/lib/services/preconditions";
import { JsonText } from "@/lib/shared/json-text";
import { createdContent, patchedContent, presentTemplate, type TemplateRow, type TemplateWire, templateJson } from "./template-fields";
import { recordVersion } from "./version-log";

export { presentTemplate, type TemplateRow, type TemplateWire };

export type TemplateListWire = z.input<typeof TemplateList>;

/** Rows of one scope: the caller's personal templates, or the server's. */
export const templatesIn = (scope: OwnerScope) =>
  and(eq(templates.scope, scope.kind), scope.owner === null ? isNull(templates.owner) : eq(templates.owner, scope.owner));

const describeScope = (scope: OwnerScope) => (scope.kind === "personal" ? "You have no template" : "There is no server template");

/** The 404 of a missing template — also of another user's, which must look exactly like a missing one. */
export const missingTemplate = (scope: OwnerScope, id: string) => notFound(`${describeScope(scope)} with id ${id}.`);

/** `templatesIn` with placeholders `kind` and (unless server scope) `owner`. */
const inScopePlaceholders = (ownerIsNull: boolean) =>
  and(eq(templates.scope, sql.placeholder("kind")), ownerIsNull ? isNull(templates.owner) : eq(templates.owner, sql.placeholder("owner")));

export async function findTemplate(db: Database, scope: OwnerScope, id: string): Promise<TemplateRow | null> {
  const ownerIsNull = scope.owner === null;
  const query = prepared(db, `find:${ownerIsNull}`, () =>
    db
      .select()
      .from(templates)
      .where(and(inScopePlaceholders(ownerIsNull), eq(templates.id, sql.placeholder("id"))))
      .limit(1)
      .prepare(`find_template_${ownerIsNull ? "server" : "personal"}`),
  );
  const [row] = await query.execute({ kind: scope.kind, owner: scope.owner, id });
  return row ?? null;
}

/** The row, or 404 — also for another user's row, which must look exactly like a missing one. */
export async function requireTemplate(db: Database, scope: OwnerScope, id: string): Promise<TemplateRow> {
  const row = await findTemplate(db, scope, id);
  if (!row) throw missingTemplate(scope, id);
  return row;
}

/** What names one template: its scope and its id there. */
export interface TemplateKey {
  scope: OwnerScope;
  templateId: string;
}

export const getTemplate = async (ctx: ServiceContext, { scope, templateId }: TemplateKey) =>
  presentTemplate(await requireTemplate(ctx.db, scope, templateId));

/** getTemplate's answer as JSON text written by the database: the hot read of GET one template. */
export async function getTemplateJson(ctx: ServiceContext, { scope, templateId: id }: TemplateKey): Promise<JsonText<TemplateWire>> {
  const { db } = ctx;
  const ownerIsNull = scope.owner === null;
  const statement = prepared(db, `find-json:${ownerIsNull}`, () =>
    rawStatement<[json: string]>(
      db,
      db
        .select({ json: templateJson })
        .from(templates)
        .where(and(inScopePlaceholders(ownerIsNull), eq(templates.id, sql.placeholder("id"))))
        .limit(1),
    ),
  );
  const [row] = await statement({ kind: scope.kind, owner: scope.owner, id });
  if (!row) throw missingTemplate(scope, id);
  return new JsonText(row[0]);
}

/**
 * Lists by id with the category/tag filters; with `limit`, one keyset page and a signed
 * `next_cursor`. The templates are JSON text the database wrote (templateJson), joined here.
 */
export async function listTemplates(
  ctx: ServiceContext,
  { scope, query }: { scope: OwnerScope; query: z.output<typeof ListTemplatesQuery> },
): Promise<JsonText<TemplateListWire>> {
  const { db } = ctx;
  const cursorKey = ctx.app.secretKey;
  if (query.cursor !== undefined && query.limit === undefined) throw invalidField("cursor", "needs limit");
  // The cursor is bound to the list it pages: same scope and filters.
  const context = JSON.stringify([scope.kind, scope.owner, query.category ?? null, query.tag ?? null]);
  const after = query.cursor !== undefined ? decodeCursor(cursorKey, query.cursor, context) : undefined;
  const ownerIsNull = scope.owner === null;
  const has = {
    category: query.category !== undefined,
    tag: query.tag !== undefined,
    after: after !== undefined,
    limit: query.limit !== undefined,
  };
  const statement = prepared(db, `list-json:${ownerIsNull}:${has.category}:${has.tag}:${has.after}:${has.limit}`, () => {
    const filters: SQL[] = [inScopePlaceholders(ownerIsNull)!];
    if (has.category) filters.push(eq(templates.category, sql.placeholder("category")));
    if (has.tag) filters.push(sql`${templates.tags} @> array[${sql.placeholder("tag")}]::text[]`);
    if (has.after) filters.push(gt(templates.id, sql.placeholder("after")));
    const base = db
      .select({ id: templates.id, json: templateJson })
      .from(templates)
      .where(and(...filters))
      .orderBy(asc(templates.id));
    return rawStatement<[id: string, json: string]>(db, has.limit ? base.limit(sql.placeholder("limit")) : base);
  });
  const values = { kind: scope.kind, owner: scope.owner, category: query.category, tag: query.tag, after };
  if (query.limit === undefined) return new JsonText(`{"templates":[${joinJson(await statement(values))}]}`);
  const rows = await statement({ ...values, limit: query.limit + 1 });
  const more = rows.length > query.limit;
  if (more) rows.length = query.limit;
  const nextCursor = more ? JSON.stringify(encodeCursor(cursorKey, rows[rows.length - 1]![0], context)) : "null";
  return new JsonText(`{"templates":[${joinJson(rows)}],"next_cursor":${nextCursor}}`);
}

/** The rows' JSON texts (second column) as the elements of one array. */
function joinJson(rows: Array<[id: string, json: string]>): string {
  let out = "";
  for (let i = 0; i < rows.length; i++) out += i === 0 ? rows[i]![1] : `,${rows[i]![1]}`;
  return out;
}

/**
 * Inserts a row; a taken (id, scope, owner) is 409, also when a concurrent insert wins the
 * race. `idField` names the request field that chose the id, so a form can show it there.
 * Every way a template comes to be (create, install) goes through here, inside a transaction
 * `db`: a personal one counts against its owner's bound (409 `limit-reached`).
 */
export async function insertTemplate(db: Database, values: typeof templates.$inferInsert, idField: string): Promise<TemplateRow> {
  if (values.scope === "personal" && values.owner) await assertRoomFor(db, "personalTemplates", values.owner);
  try {
    const [row] = await db.insert(templates).values(values).returning();
    return row!;
  } catch (error) {
    if (isUniqueViolation(error)) throw idTaken(values.id, idField);
    // A personal template's owner (the caller) was deleted while the request ran.
    if (isForeignKeyViolation(error)) throw notFound(`No user ${values.owner} exists.`);
    throw error;
  }
}

export const idTaken = (id: string, field: string) =>
  conflict(`A template with id ${id} already exists here.`, [{ path: field, message: `${id} is taken; choose another id` }], "id-taken");

export async function createTemplate(
  ctx: ServiceContext,
  { scope, body }: { scope: OwnerScope; body: z.output<typeof CreateTemplateRequest> },
) {
  return withTransaction(ctx, async (tx) => {
    const inserted = await insertTemplate(
      tx.db,
      {
        id: body.id,
        scope: scope.kind,
        owner: scope.owner,
        ...createdContent(body),
      },
      "id",
    );
    await recordVersion(tx.db, inserted, "create", tx.actor.id);
    const after = presentTemplate(inserted);
    await tx.audit.record({ action: "template.create", target: { type: "template", id: inserted.id }, before: null, after });
    return after;
  });
}

/** The row, locked for the rest of the transaction `db`; 404 when there is none. */
export async function lockTemplate(db: Database, scope: OwnerScope, id: string): Promise<TemplateRow> {
  const [row] = await db
    .select()
    .from(templates)
    .where(and(templatesIn(scope), eq(templates.id, id)))
    .for("update")
    .limit(1);
  if (!row) throw missingTemplate(scope, id);
  return row;
}

/**
 * Applies the given fields in one conditional statement; `{}` changes nothing, not even
 * updated_at. A template deleted meanwhile answers 404, as a missing one does.
 */
export async function patchTemplate(
  ctx: ServiceContext,
  { scope, templateId: id, body: patch }: TemplateKey & { body: z.output<typeof PatchTemplateRequest> },
) {
  // null clears description and category, and means "unchanged" for the other fields (CONTRACT §15).
  const changes = patchedContent(patch);
  if (Object.keys(changes).length === 0) {
    // Nothing to write, but the request succeeded as a write: it is audited all the same.
    const unchanged = await getTemplate(ctx, { scope, templateId: id });
    await ctx.audit.record({ action: "template.patch", target: { type: "template", id }, before: unchanged, after: unchanged });
    return unchanged;
  }
  return withTransaction(ctx, async (tx) => {
    const before = presentTemplate(await lockTemplate(tx.db, scope, id));
    checkPrecondition(tx, before);
    const [written] = await tx.db
      .update(templates)
      // Only a template installed from a source can have local edits.
      .set({ ...changes, locallyModified: sql`${templates.sourceName} is not null`, updatedAt: new Date() })
      .where(and(templatesIn(scope), eq(templates.id, id)))
      .returning();
    if (!written) throw missingTemplate(scope, id);
    await recordVersion(tx.db, written, "patch", tx.actor.id);
    const after = presentTemplate(written);
    await tx.audit.record({ action: "template.patch", target: { type: "template", id }, before, after });
    return after;
  });
}

export async function deleteTemplate(ctx: ServiceContext, { scope, templateId: id }: TemplateKey): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    const [deleted] = await tx.db
      .delete(templates)
      .where(and(templatesIn(scope), eq(templates.id, id)))
      .returning();
    if (!deleted) throw missingTemplate(scope, id);
    await tx.audit.record({ action: "template.delete", target: { type: "template", id }, before: presentTemplate(deleted), after: null });
  });
}
