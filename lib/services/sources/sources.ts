import "server-only";
import { and, asc, eq, isNull, or } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "@/db/client";
import { isForeignKeyViolation, isUniqueViolation } from "@/db/errors";
import { templateSources } from "@/db/schema";
import { conflict, invalidField, notFound } from "@/lib/contracts/errors";
import { iso, isoOrNull } from "@/lib/contracts/fields";
import type { OwnerScope } from "@/lib/contracts/scope";
import { deriveSourceName, parseHttpUrl, SOURCE_NAME_PATTERN, SOURCE_NAME_RULE, tokenHostOf } from "@/lib/contracts/sources/names";
import type { CreateSourceRequest, Source, UpdateSourceRequest } from "@/lib/contracts/sources/schemas";
import { decryptSecret, encryptSecret } from "@/lib/platform/secret-box";
import { assertRoomFor } from "@/lib/services/bounds/owner-bounds";
import { type ServiceContext, withTransaction } from "@/lib/services/context";
import { catalogLocation, dropCachedCatalog } from "@/lib/services/marketplace";
import { checkPrecondition } from "@/lib/services/preconditions";

export type SourceRow = typeof templateSources.$inferSelect;

export function presentSource(row: SourceRow): z.input<typeof Source> {
  return {
    name: row.name,
    url: row.url,
    scope: row.scope,
    owner: row.owner,
    has_auth: row.authTokenEncrypted !== null,
    description: row.description,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    catalog_fetched_at: isoOrNull(row.catalogFetchedAt),
    catalog_error: row.catalogError,
  };
}

const inScope = (scope: OwnerScope) =>
  and(eq(templateSources.scope, scope.kind), scope.owner === null ? isNull(templateSources.owner) : eq(templateSources.owner, scope.owner));

/** The source of that name in the scope. */
const named = (scope: OwnerScope, name: string) => and(inScope(scope), eq(templateSources.name, name));

const scopeWords = (scope: OwnerScope) => (scope.kind === "personal" ? "personal source" : "server source");

export async function listSources(ctx: ServiceContext, { scope }: { scope: OwnerScope }) {
  const rows = await ctx.db.select().from(templateSources).where(inScope(scope)).orderBy(asc(templateSources.name));
  return rows.map(presentSource);
}

/** One source of the scope; 404 when it has none of that name. */
export async function getSource(ctx: ServiceContext, { scope, name }: { scope: OwnerScope; name: string }) {
  const [row] = await ctx.db.select().from(templateSources).where(named(scope, name)).limit(1);
  if (!row) throw notFound(`No ${scopeWords(scope)} named ${name} exists.`);
  return presentSource(row);
}

/** Every source the caller can install from: their personal sources and the server's, by name then scope. */
export async function listAvailableSources(ctx: ServiceContext) {
  const rows = await ctx.db
    .select()
    .from(templateSources)
    .where(or(inScope({ kind: "personal", owner: ctx.actor.userId }), inScope({ kind: "server", owner: null })))
    .orderBy(asc(templateSources.name), asc(templateSources.scope));
  return rows.map(presentSource);
}

/** Resolves the name: the alias, else derived from the URL (422 at `url` when it cannot be). */
function sourceNameFor(input: z.output<typeof CreateSourceRequest>): string {
  if (input.alias) return input.alias;
  const derived = deriveSourceName(parseHttpUrl(input.url)!);
  if (derived === null) {
    throw invalidField("url", "has no path segment to derive a source name from; give an alias");
  }
  if (!SOURCE_NAME_PATTERN.test(derived)) {
    throw invalidField("url", `gives the source name '${derived}', which ${SOURCE_NAME_RULE}; give an alias`);
  }
  return derived;
}

export async function createSource(
  ctx: ServiceContext,
  { scope, body: input }: { scope: OwnerScope; body: z.output<typeof CreateSourceRequest> },
) {
  const name = sourceNameFor(input);
  try {
    return await withTransaction(ctx, async (tx) => {
      if (scope.kind === "personal") await assertRoomFor(tx.db, "personalSources", scope.owner);
      const [inserted] = await tx.db
        .insert(templateSources)
        .values({
          scope: scope.kind,
          owner: scope.owner,
          name,
          url: input.url,
          authTokenEncrypted: input.auth_token ? encryptSecret(ctx.app.secretKey, input.auth_token) : null,
          description: input.description ?? null,
        })
        .returning();
      const source = presentSource(inserted!);
      // The name may come from the URL: only here is it known.
      await tx.audit.record({ action: "template_source.create", target: { type: "source", id: name }, before: null, after: source });
      return source;
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      // Point at the field the name came from, so a form can show the conflict there.
      const taken = `A ${scopeWords(scope)} named “${name}” already exists`;
      throw conflict(
        `${taken}.`,
        [
          input.alias
            ? { path: "alias", message: `${taken}; choose another name.` }
            : { path: "url", message: `${taken}; give this one another name under Alias.` },
        ],
        "id-taken",
      );
    }
    // A personal source's owner (the caller) was deleted while the request ran.
    if (isForeignKeyViolation(error)) throw notFound(`No user ${scope.owner} exists.`);
    throw error;
  }
}

/**
 * Changes a source's url, description or token (CONTRACT §16); the name, and with it every
 * template installed from the source, stays. A url on another host drops the stored token unless
 * the request sets `auth_token` (§19). A new url or token makes what was fetched before
 * say nothing about the source: its cached catalog (old location, old credential) is dropped
 * and its catalog status starts over as never fetched. `{}` changes nothing and is audited all
 * the same, as a template PATCH is.
 */
export async function updateSource(
  ctx: ServiceContext,
  { scope, name, body: input }: { scope: OwnerScope; name: string; body: z.output<typeof UpdateSourceRequest> },
) {
  return withTransaction(ctx, async (tx) => {
    const [row] = await tx.db.select().from(templateSources).where(named(scope, name)).for("update");
    if (!row) throw notFound(`No ${scopeWords(scope)} named ${name} exists.`);
    const before = presentSource(row);
    checkPrecondition(tx, before);
    const storedToken = row.authTokenEncrypted ? decryptSecret(ctx.app.secretKey, row.authTokenEncrypted) : null;
    const url = input.url ?? row.url;
    // A token goes only to the host it was given for (CONTRACT §19): a url on another scheme, host
    // or port drops it, unless this same request gives the token for the new one.
    const keptToken = tokenHostOf(url) === tokenHostOf(row.url) ? storedToken : null;
    const token = input.auth_token === undefined ? keptToken : input.auth_token;
    const description = input.description === undefined ? row.description : input.description;
    const relocated = url !== row.url || token !== storedToken;
    if (!relocated && description === row.description) {
      await tx.audit.record({ action: "template_source.update", target: { type: "source", id: name }, before, after: before });
      return before;
    }
    const [written] = await tx.db
      .update(templateSources)
      .set({
        url,
        description,
        // Re-encrypted only when it changed: an unchanged token keeps its stored form.
        ...(token !== storedToken && { authTokenEncrypted: token === null ? null : encryptSecret(ctx.app.secretKey, token) }),
        ...(relocated && { catalogFetchedAt: null, catalogError: null }),
        updatedAt: new Date(),
      })
      .where(eq(templateSources.id, row.id))
      .returning();
    if (relocated) {
      const oldCatalog = catalogUrlOf(row.url);
      if (oldCatalog) await dropCachedCatalog(tx.db, oldCatalog, storedToken);
    }
    const after = presentSource(written!);
    await tx.audit.record({ action: "template_source.update", target: { type: "source", id: name }, before, after });
    return after;
  });
}

/**
 * Where the catalog of a source URL is; null for a URL no catalog could ever be fetched from (so
 * nothing is cached for it), which must not keep such a source from being fixed.
 */
function catalogUrlOf(sourceUrl: string): string | null {
  try {
    return catalogLocation(sourceUrl);
  } catch {
    return null;
  }
}

export async function deleteSource(ctx: ServiceContext, { scope, name }: { scope: OwnerScope; name: string }): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    const [deleted] = await tx.db.delete(templateSources).where(named(scope, name)).returning();
    if (!deleted) throw notFound(`No ${scopeWords(scope)} named ${name} exists.`);
    await tx.audit.record({
      action: "template_source.delete",
      target: { type: "source", id: name },
      before: presentSource(deleted),
      after: null,
    });
  });
}

/**
 * Holds a source (by its row id) until the transaction ends, so it cannot be deleted before
 * what is written from it commits. False when it is gone already.
 */
export async function holdSource(db: Database, sourceId: string): Promise<boolean> {
  const [row] = await db.select({ id: templateSources.id }).from(templateSources).where(eq(templateSources.id, sourceId)).for("share");
  return row !== undefined;
}

/** A source with its decrypted token, for talking to its marketplace; null when absent. */
export async function findSourceWithToken(db: Database, secretKey: Buffer, scope: OwnerScope, name: string) {
  const [row] = await db.select().from(templateSources).where(named(scope, name)).limit(1);
  if (!row) return null;
  return { row, authToken: row.authTokenEncrypted ? decryptSecret(secretKey, row.authTokenEncrypted) : null };
}
