import "server-only";
import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import {
  type ContentValue,
  type DetailKey,
  entryDetails,
  revisionContent,
  type TemplateContent,
} from "@/lib/contracts/templates/content-fields";

/** A catalog entry's content: its name and manifest, any other field absent or null. */
type RevisionInput = Pick<TemplateContent, "name" | "manifest"> & { [K in DetailKey]?: ContentValue<K> | null };

/**
 * First 16 hex digits of SHA-256 over the RFC 8785 canonical JSON of the entry's content
 * (CONTRACT §6, revisionContent), so the revision depends on what the template says, not on how
 * the server formats or labels it.
 */
export function templateRevision(entry: RevisionInput): string {
  const canonical = canonicalize(revisionContent({ ...entryDetails(entry), manifest: entry.manifest }));
  if (canonical === undefined) throw new Error("A template entry cannot be serialised to canonical JSON.");
  return createHash("sha256").update(canonical).digest("hex").slice(0, 16);
}
