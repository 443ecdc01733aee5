import { and, asc, eq, gt, isNull, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "@/db/client";
import { isForeignKeyViolation, isUniqueViolation } from "@/db/errors";
import { templates } from "@/db/schema";
import { decodeCursor, encodeCursor } from "@/lib/api/cursor";
import { iso } from "@/lib/api/fields";
import { conflict, invalidField, notFound } from "@/lib/http/errors";
import type { OwnerScope } from "@/lib/identity/scope";
import type { CreateTemplateRequest, ListTemplatesQuery, PatchTemplateRequest, Template } from "./schemas";

export type TemplateRow = typeof templates.$inferSelect;
export type TemplateWire = z.input<typeof Template>;

export function presentTemplate(row: TemplateRow): TemplateWire {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    category: row.category,
    integrations: row.integrations,
    tags: row.tags,
    scope: row.scope,
    owner: row.owner,
    source_name: row.sourceName,
    source_scope: row.sourceScope,
    source_owner: row.sourceOwner,
    source_revision: row.sourceRevision,
    locally_modified: row.locallyModified,
    installed_at: iso(row.installedAt),
    updated_at: iso(row.updatedAt),
    manifest: row.manifest as TemplateWire["manifest"],
  };
}

/** Rows of one scope: the caller's personal templates, or the server's. */
export const templatesIn = (scope: OwnerScope) =>
  and(eq(templates.scope, scope.kind), scope.owner === null ? isNull(templates.owner) : eq(templates.owner, scope.owner));

const describeScope = (scope: OwnerScope) => (scope.kind === "personal" ? "You have no template" : "There is no server template");

/** The 404 of a missing template — also of another user's, which must look exactly like a missing one. */
export const missingTemplate = (scope: OwnerScope, id: string) => notFound(`${describeScope(scope)} with id ${id}.`);

/*
 * The hot reads (GET one template, a page of the list) are prepared once per database and
 * filter combination: building a query with drizzle on every request cost more CPU than
 * PostgreSQL spent answering it. Placeholders carry the values; the SQL is what it was.
 */
const preparedByDatabase = new WeakMap<Database, Map<string, unknown>>();
function prepared<T>(db: Database, key: string, build: () => T): T {
  let byKey = preparedByDatabase.get(db);
  if (!byKey) preparedByDatabase.set(db, (byKey = new Map()));
  let query = byKey.get(key) as T | undefined;
  if (!query) byKey.set(key, (query = build()));
  return query;
}

/** `templatesIn` with placeholders `kind` and (unless server scope) `owner`. */
const inScopePlaceholders = (ownerIsNull: boolean) =>
  and(
    eq(templates.scope, sql.placeholder("kind")),
    ownerIsNull ? isNull(templates.owner) : eq(templates.owner, sql.placeholder("owner")),
  );

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

export const getTemplate = async (db: Database, scope: OwnerScope, id: string) =>
  presentTemplate(await requireTemplate(db, scope, id));

/** Lists by id with the category/tag filters; with `limit`, one keyset page and a signed `next_cursor`. */
export async function listTemplates(db: Database, cursorKey: Buffer, scope: OwnerScope, query: z.output<typeof ListTemplatesQuery>) {
  if (query.cursor !== undefined && query.limit === undefined) throw invalidField("cursor", "needs limit");
  // The cursor is bound to the list it pages: same scope and filters.
  const context = JSON.stringify([scope.kind, scope.owner, query.category ?? null, query.tag ?? null]);
  const after = query.cursor !== undefined ? decodeCursor(cursorKey, query.cursor, context) : undefined;
  const ownerIsNull = scope.owner === null;
  const has = { category: query.category !== undefined, tag: query.tag !== undefined, after: after !== undefined, limit: query.limit !== undefined };
  const statement = prepared(db, `list:${ownerIsNull}:${has.category}:${has.tag}:${has.after}:${has.limit}`, () => {
    const filters: SQL[] = [inScopePlaceholders(ownerIsNull)!];
    if (has.category) filters.push(eq(templates.category, sql.placeholder("category")));
    if (has.tag) filters.push(sql`${templates.tags} @> array[${sql.placeholder("tag")}]::text[]`);
    if (has.after) filters.push(gt(templates.id, sql.placeholder("after")));
    const base = db.select().from(templates).where(and(...filters)).orderBy(asc(templates.id));
    return (has.limit ? base.limit(sql.placeholder("limit")) : base).prepare(
      `list_templates_${ownerIsNull ? "s" : "p"}${+has.category}${+has.tag}${+has.after}${+has.limit}`,
    );
  });
  const values = { kind: scope.kind, owner: scope.owner, category: query.category, tag: query.tag, after };
  if (query.limit === undefined) return { templates: (await statement.execute(values)).map(presentTemplate) };
  const rows = await statement.execute({ ...values, limit: query.limit + 1 });
  const page = rows.slice(0, query.limit);
  const more = rows.length > query.limit;
  return {
    templates: page.map(presentTemplate),
    next_cursor: more ? encodeCursor(cursorKey, page[page.length - 1]!.id, context) : null,
  };
}

/**
 * Inserts a row; a taken (id, scope, owner) is 409, also when a concurrent insert wins the
 * race. `idField` names the request field that chose the id, so a form can show it there.
 */
export async function insertTemplate(db: Database, values: typeof templates.$inferInsert, idField: string): Promise<TemplateRow> {
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

export async function createTemplate(db: Database, scope: OwnerScope, input: z.output<typeof CreateTemplateRequest>) {
  const row = await insertTemplate(db, {
    id: input.id,
    scope: scope.kind,
    owner: scope.owner,
    name: input.name,
    description: input.description ?? null,
    category: input.category ?? null,
    integrations: input.integrations ?? [],
    tags: input.tags ?? [],
    manifest: input.manifest,
  }, "id");
  return presentTemplate(row);
}

/**
 * Applies the given fields in one conditional statement; `{}` changes nothing, not even
 * updated_at. A template deleted meanwhile answers 404, as a missing one does.
 */
export async function patchTemplate(db: Database, scope: OwnerScope, id: string, patch: z.output<typeof PatchTemplateRequest>) {
  const changes: Partial<typeof templates.$inferInsert> = {};
  if (patch.name !== undefined) changes.name = patch.name;
  if (patch.description !== undefined) changes.description = patch.description;
  if (patch.category !== undefined) changes.category = patch.category;
  if (patch.integrations !== undefined) changes.integrations = patch.integrations;
  if (patch.tags !== undefined) changes.tags = patch.tags;
  if (patch.manifest !== undefined) changes.manifest = patch.manifest;
  if (Object.keys(changes).length === 0) return getTemplate(db, scope, id);
  const [row] = await db
    .update(templates)
    // Only a template installed from a source can have local edits.
    .set({ ...changes, locallyModified: sql`${templates.sourceName} is not null`, updatedAt: new Date() })
    .where(and(templatesIn(scope), eq(templates.id, id)))
    .returning();
  if (!row) throw missingTemplate(scope, id);
  return presentTemplate(row);
}

export async function deleteTemplate(db: Database, scope: OwnerScope, id: string): Promise<void> {
  const deleted = await db
    .delete(templates)
    .where(and(templatesIn(scope), eq(templates.id, id)))
    .returning({ rowId: templates.rowId });
  if (deleted.length === 0) throw missingTemplate(scope, id);
}
