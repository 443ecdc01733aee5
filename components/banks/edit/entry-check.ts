import { useMemo } from "react";
import { type ManifestCheck, useManifestValidation } from "@/lib/client/hooks/manifests";
import type { FieldError } from "@/lib/contracts/problem-schema";

/** What of a bank one editor holds: its config (the manifest's `bank`), or one mental model or directive. */
export type BankPart = { kind: "config" } | { kind: "mental_models"; key: string } | { kind: "directives"; key: string };

/** The key field of an entry of each list. */
export const KEY_FIELD = { mental_models: "id", directives: "name" } as const;

/** The manifest that holds just `value` where the bank template schema puts it. */
function manifestHolding(part: BankPart, value: unknown): unknown {
  if (part.kind === "config") return { version: "1", bank: value };
  const entry =
    typeof value === "object" && value !== null && !Array.isArray(value) ? { [KEY_FIELD[part.kind]]: part.key, ...value } : value;
  return { version: "1", [part.kind]: [entry] };
}

const PREFIX = {
  config: /^manifest\.bank\.?/,
  mental_models: /^manifest\.mental_models(\[0\]|\.0)\.?/,
  directives: /^manifest\.directives(\[0\]|\.0)\.?/,
};

/** A path of the wrapping manifest as a path of the editor's own text (`manifest.directives[0].priority` → `priority`). */
function ownPath(part: BankPart, path: string): string {
  return path.replace(PREFIX[part.kind], "") || "(root)";
}

/**
 * Live validation of one part of a bank being typed, with the bank template schema's rules and
 * hints: the text is checked as the manifest that holds it (POST /manifests/validate), and its
 * errors and warnings come back at the text's own paths.
 */
export function useBankPartValidation(part: BankPart, text: string) {
  const { parsed, wrapped } = useMemo(() => {
    try {
      const value: unknown = JSON.parse(text);
      return { parsed: { ok: true as const, value }, wrapped: JSON.stringify(manifestHolding(part, value)) };
    } catch {
      // Not JSON: checked as it is, so the syntax error is the text's own.
      return { parsed: { ok: false as const }, wrapped: text };
    }
  }, [part, text]);
  // The wrapping manifest's own parse is not the text's: the text's value is `parsed`.
  const { check, previous } = useManifestValidation(wrapped);
  const own = (errors: FieldError[]) => errors.map((error) => ({ ...error, path: ownPath(part, error.path) }));
  const mapped: ManifestCheck = check.state === "checked" ? { ...check, errors: own(check.errors), warnings: own(check.warnings) } : check;
  return {
    parsed,
    check: mapped,
    previous: previous && { ...previous, errors: own(previous.errors), warnings: own(previous.warnings) },
  };
}
