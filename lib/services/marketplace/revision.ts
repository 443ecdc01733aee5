import "server-only";
import { createHash } from "node:crypto";
import canonicalize from "canonicalize";

/** The parts of a catalog entry its revision covers (CONTRACT §6). */
export interface RevisionInput {
  name: string;
  description?: string | null;
  category?: string | null;
  integrations?: string[];
  tags?: string[];
  manifest: Record<string, unknown>;
}

/**
 * First 16 hex digits of SHA-256 over the RFC 8785 canonical JSON of the entry's content, so the
 * revision depends on what the template says, not on how the server formats or labels it.
 */
export function templateRevision(entry: RevisionInput): string {
  const canonical = canonicalize({
    name: entry.name,
    description: entry.description ?? null,
    category: entry.category ?? null,
    integrations: entry.integrations ?? [],
    tags: entry.tags ?? [],
    manifest: entry.manifest,
  });
  if (canonical === undefined) throw new Error("A template entry cannot be serialised to canonical JSON.");
  return createHash("sha256").update(canonical).digest("hex").slice(0, 16);
}
