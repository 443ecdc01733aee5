import "server-only";
import { type EntityTagCondition, matchesStrongly, parseEntityTags } from "@/lib/contracts/conditional-header";
import { preconditionFailed } from "@/lib/contracts/errors";
import { entityTag } from "@/lib/platform/entity-tag";
import type { Audit, ServiceContext, WritePrecondition } from "@/lib/services/context";

/**
 * What a write to one resource was asked to hold before it writes (CONTRACT §19): `If-Match`
 * (that version, or with `*` any), `If-None-Match: *` (none: create only). Checked once, holding
 * the resource (its row lock, or the advisory lock of a resource that may not exist yet), against
 * the resource as GET answers it, so two writes sent with the same tag cannot both pass.
 */
class EntityTagPrecondition implements WritePrecondition {
  private checked = false;

  constructor(
    readonly ifMatch: EntityTagCondition | null,
    readonly ifNoneMatch: "*" | null,
  ) {}

  /** Whether the resource was already checked (by the verb, or by its audit entry's `before`). */
  get done(): boolean {
    return this.checked;
  }

  /**
   * Throws `precondition-failed` (with the current tag) unless `current`, the resource as GET
   * answers it (null when there is none), is as asked; nothing is written after a throw, as the
   * caller's transaction rolls back.
   */
  check(current: unknown): void {
    this.checked = true;
    const tag = current === null || current === undefined ? undefined : entityTag(current);
    if (this.ifNoneMatch === "*" && tag !== undefined) {
      throw preconditionFailed("It exists already, and If-None-Match: * asks to create it only; nothing was written.", tag);
    }
    if (this.ifMatch === null) return;
    if (tag === undefined) throw preconditionFailed("It does not exist, and If-Match asks for a version of it; nothing was written.", tag);
    if (!matchesStrongly(this.ifMatch, tag)) {
      throw preconditionFailed(
        "It has changed since the version named in If-Match was read (the ETag header names the current one); read it again and apply your change to that. Nothing was written.",
        tag,
      );
    }
  }
}

/** Checks the call's precondition, if it has one, against the resource as GET answers it now (null: none). */
export function checkPrecondition(ctx: ServiceContext, current: unknown): void {
  ctx.precondition?.check(current);
}

/** What a conditional write's audit entry left: the resource as GET answers it after the write (null: deleted). */
export interface Written {
  after?: unknown;
}

/**
 * A conditional write's precondition from its headers' values (If-Match; If-None-Match, of which
 * only `*` counts), and the audit that checks it and keeps what was written (preconditionAudit):
 * for a request (lib/http/conditional.ts) and for each bank a rollout names with its ETag.
 */
export function conditionalWrite(audit: Audit, { ifMatch, ifNoneMatch }: { ifMatch: string | null; ifNoneMatch: string | null }) {
  const noneMatch = parseEntityTags(ifNoneMatch);
  const precondition = new EntityTagPrecondition(parseEntityTags(ifMatch), noneMatch === "*" ? "*" : null);
  const written: Written = {};
  return { precondition, audit: preconditionAudit(audit, precondition, written), written };
}

/**
 * The audit of a conditional write: a verb that did not check its precondition itself has it
 * checked against its entry's `before` (the resource as GET answered it, read in the write's
 * transaction, which rolls back on a failure), and the entry's `after` is kept: the resource as
 * GET now answers it, whose tag the write answers.
 */
function preconditionAudit(audit: Audit, precondition: WritePrecondition, written: Written): Audit {
  return {
    record: async (entry) => {
      if (!precondition.done) precondition.check(entry.before);
      written.after = entry.after;
      await audit.record(entry);
    },
    using: (db) => preconditionAudit(audit.using(db), precondition, written),
  };
}
