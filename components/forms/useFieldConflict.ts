"use client";
import type { UseQueryResult } from "@tanstack/react-query";
import { useState } from "react";
import { useConsoleUser } from "@/components/console/console-user";
import { entityTagOf } from "@/lib/client/entity-tag";
import { writesSince } from "@/lib/client/hooks/audit";
import { sameJson } from "@/lib/shared/same-json";
import { type ChangeAuthor, isEditConflict } from "./edit-conflict";

/** A save refused because the resource changed meanwhile: the resource now (null: deleted), and who changed it (none named: unknown). */
export interface FieldConflict<R> {
  theirs: R | null;
  authors: ChangeAuthor[];
}

interface Options<R, F> {
  /** The resource as the form was loaded from it (a list's row: no ETag of its own). */
  row: R;
  /**
   * The query that reads the resource just now (GET one, with its ETag; its data undefined while
   * it is being read), read again when a save needs it; a 404 means the resource is gone.
   */
  query: Pick<UseQueryResult<R, { status?: number }>, "data" | "refetch">;
  /** The fields the form edits, as a resource holds them. */
  fieldsOf: (resource: R) => F;
  /** The resource's path as the audit log names writes to it (its update endpoint's URL): who changed it is asked there. */
  auditedPath: string;
}

/**
 * For a dialog that edits fields of one resource (a source, a user): the version the form was
 * loaded from, written against with If-Match, and the conflict a save found when someone else
 * changed the resource meanwhile. A list row has no ETag, so the version is that of the
 * resource read again as the dialog opened (waited for by a save made before it came), as long
 * as it still holds what the row showed; when it does not, a save shows the conflict at once,
 * sending nothing.
 */
export function useFieldConflict<R extends { updated_at: string }, F extends object>({ row, query, fieldsOf, auditedPath }: Options<R, F>) {
  const now = query.data;
  // Only admins may read the audit log: for anyone else who changed it is not known, and not asked.
  const isAdmin = useConsoleUser().role === "admin";
  // A failed read keeps the last answer's data: only a 404 means the resource is gone.
  const readNow = async () => {
    const read = await query.refetch();
    return read.error?.status === 404 ? null : (read.data ?? null);
  };
  const [base, setBase] = useState<{ resource: R; version?: string } | null>(null);
  const [conflict, setConflict] = useState<FieldConflict<R> | null>(null);
  const shown = base?.resource ?? row;
  /** The version to write against, from the resource as read just now; `stale` when that is no longer what the row showed. */
  const versionFrom = (current: R | null) => {
    if (base) return { version: base.version, stale: false };
    const same = current !== null && sameJson(fieldsOf(current), fieldsOf(row));
    return { version: same ? entityTagOf(current) : undefined, stale: !same };
  };

  const showConflict = async (theirs: R | null) => {
    const authors: ChangeAuthor[] | null = isAdmin ? await writesSince(auditedPath, shown.updated_at) : null;
    setConflict({ theirs, authors: authors ?? [] });
  };

  /**
   * Sends the form against the version shown (`send` gets its ETag), or with `overwrite` against
   * theirs, the conflict's version; a conflict is shown instead of failing.
   */
  const save = async <T>(send: (version: string | undefined) => Promise<T>, { overwrite = false } = {}): Promise<T | undefined> => {
    let against: string | undefined;
    if (overwrite && conflict?.theirs) {
      against = entityTagOf(conflict.theirs);
      setBase({ resource: conflict.theirs, version: against });
    } else {
      // Saved before the dialog's read came back: it is waited for, so no save goes without its version.
      const current = now === undefined && base === null ? await readNow() : (now ?? null);
      const { version, stale } = versionFrom(current);
      if (stale) {
        await showConflict(current);
        return undefined;
      }
      against = version;
    }
    setConflict(null);
    try {
      return await send(against);
    } catch (error) {
      if (!isEditConflict(error)) throw error;
      await showConflict(await readNow());
      return undefined;
    }
  };

  /** Merge or discard chosen: the form now stands on their version. */
  const standOnTheirs = () => {
    if (conflict?.theirs) setBase({ resource: conflict.theirs, version: entityTagOf(conflict.theirs) });
    setConflict(null);
  };

  return { base: fieldsOf(shown), shown, conflict, save, standOnTheirs };
}
