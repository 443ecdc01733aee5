import { useDebouncedValue } from "@mantine/hooks";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import type { FieldError } from "@/lib/contracts/problem-schema";
import { api } from "../api";
import { endpoints } from "../endpoints";
import type { ApiProblem } from "../problem";
import { endpointQueryKey } from "../query";

/** The editor's text as JSON: the value, or why it is not JSON. */
export type ParsedJson = { ok: true; value: unknown } | { ok: false; empty: boolean; message: string };

function parseJsonText(text: string): ParsedJson {
  if (text.trim() === "") return { ok: false, empty: true, message: "is empty" };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, empty: false, message: error instanceof Error ? error.message : String(error) };
  }
}

export type ManifestCheck =
  | { state: "empty" }
  | { state: "syntax"; message: string }
  | { state: "checking" }
  | { state: "checked"; valid: boolean; errors: FieldError[]; warnings: FieldError[] }
  | { state: "failed"; error: ApiProblem };

/**
 * Live validation of a manifest being typed: JSON syntax at once, then the bank-template
 * rules through POST /ext/svc/manifests/validate once the text rests for `delayMs`.
 * Paths in the answer start at `manifest.`.
 */
export function useManifestValidation(text: string, delayMs = 400) {
  const parsed = useMemo(() => parseJsonText(text), [text]);
  // The first render's text counts as settled: a loaded manifest is checked at once.
  const [settledText] = useDebouncedValue(text, delayMs);
  const settled = useMemo(() => parseJsonText(settledText), [settledText]);
  const endpoint = endpoints.manifests.validate;
  const query = useQuery({
    queryKey: [...endpointQueryKey(endpoint), settledText],
    queryFn: () => api.call(endpoint, { body: { manifest: settled.ok ? settled.value : null } }),
    enabled: settled.ok,
    staleTime: Infinity,
    retry: false,
    placeholderData: keepPreviousData,
  });

  let check: ManifestCheck;
  if (!parsed.ok) check = parsed.empty ? { state: "empty" } : { state: "syntax", message: parsed.message };
  else if (settledText !== text || query.isFetching || query.isPending) check = { state: "checking" };
  else if (query.isError) check = { state: "failed", error: query.error as ApiProblem };
  else check = { state: "checked", valid: query.data!.valid, errors: query.data!.errors, warnings: query.data!.warnings };

  return { parsed, check, previous: query.data };
}
