"use client";
import { Alert, Anchor, Badge, Box, Button, Code, Group, List, Loader, Stack, Text } from "@mantine/core";
import { IconAlertTriangle, IconCircleCheck, IconInfoCircle } from "@tabler/icons-react";
import { type ReactNode, useId, useRef } from "react";
import { jsonDiagnostics } from "@/components/editor/diagnostics";
import { JsonEditor, type JsonEditorHandle } from "@/components/editor/JsonEditor";
import type { ManifestCheck } from "@/lib/client/hooks/manifests";
import { describeError } from "@/lib/client/problem";
import type { FieldError } from "@/lib/contracts/problem-schema";
import { formatJson, locateJsonPath, pathSegments, syntaxErrorSpan, type TextSpan } from "./json-text";

export interface ManifestEditorProps {
  value: string;
  onChange: (text: string) => void;
  /** The live check of `value` (useManifestValidation). */
  check: ManifestCheck;
  /** The last answer of the validator, shown (dimmed) while a newer text is being checked. */
  previous?: { valid: boolean; errors: FieldError[]; warnings: FieldError[] };
  /** Manifest errors the API gave when saving (paths from `manifest.`), shown like the live ones. */
  saveErrors?: FieldError[];
  /** Buttons beside Format: Upload, Use example. */
  actions?: ReactNode;
  label?: string;
  /** What the text is, in the status lines ("manifest", "directive"), and what an empty editor shows. */
  noun?: string;
  placeholder?: string;
}

/** `value` itself while it stays equal by content, so effects keyed on it run only on a real change. */
function useStableByJson<T>(value: T): T {
  const last = useRef(value);
  const key = JSON.stringify(value);
  const lastKey = useRef(key);
  if (key !== lastKey.current) {
    last.current = value;
    lastKey.current = key;
  }
  return last.current;
}

/**
 * The JSON manifest in a code editor (highlighting, line numbers, folding, bracket matching),
 * with what is wrong with it marked at its line and listed below: a JSON syntax error at
 * once, the bank-template rules after a short pause. Each listed problem names its path and
 * line, and selects that spot in the text when activated.
 */
export function ManifestEditor({
  value,
  onChange,
  check,
  previous,
  saveErrors = [],
  actions,
  label = "Manifest (JSON)",
  noun = "manifest",
  placeholder = '{\n  "version": "1",\n  "directives": []\n}',
}: ManifestEditorProps) {
  const editor = useRef<JsonEditorHandle>(null);
  const statusId = useId();

  const select = (span: TextSpan) => editor.current?.select(span.start, span.end);

  const format = () => {
    try {
      onChange(formatJson(JSON.parse(value)));
    } catch {
      // not JSON: the syntax error is already listed
    }
  };

  const shown = check.state === "checked" ? check : check.state === "checking" ? previous : undefined;
  const errors = mergeIssues(shown?.errors ?? [], saveErrors);
  const invalid = check.state === "syntax" || (check.state === "checked" && !check.valid) || saveErrors.length > 0;
  const warnings = shown?.warnings ?? [];
  const diagnostics = useStableByJson(jsonDiagnostics(value, check.state === "syntax" ? check.message : null, { errors, warnings }));

  return (
    <Stack gap="xs">
      <Group justify="space-between" align="flex-end" gap="xs">
        {/* The editor is named by aria-label (a label element cannot point at it); this is what sighted users read. */}
        <Text fw={500} size="sm" onClick={() => editor.current?.focus()}>
          {label}
        </Text>
        <Group gap="xs">
          {actions}
          <Button size="xs" variant="default" onClick={format} disabled={check.state === "syntax" || check.state === "empty"}>
            Format
          </Button>
        </Group>
      </Group>
      <JsonEditor
        handleRef={editor}
        value={value}
        onChange={onChange}
        label={label}
        describedBy={statusId}
        invalid={invalid}
        diagnostics={diagnostics}
        placeholder={placeholder}
        minHeight="18em"
        maxHeight="42em"
        testId="manifest-editor"
      />
      <Box id={statusId} aria-live="polite" data-testid="manifest-validation">
        <ValidationStatus check={check} value={value} onSelect={select} noun={noun} />
        {(errors.length > 0 || warnings.length > 0) && (
          <Box mt="xs" style={{ opacity: check.state === "checking" ? 0.6 : 1 }}>
            <IssueList title="Errors" color="red" issues={errors} text={value} onSelect={select} />
            <IssueList title="Warnings" color="yellow" issues={warnings} text={value} onSelect={select} />
          </Box>
        )}
      </Box>
    </Stack>
  );
}

/** The same path and message listed once, whether the live check or the save reported it. */
function mergeIssues(a: FieldError[], b: FieldError[]) {
  const seen = new Set(a.map((e) => `${e.path}\u0000${e.message}`));
  return [...a, ...b.filter((e) => !seen.has(`${e.path}\u0000${e.message}`))];
}

function ValidationStatus({
  check,
  value,
  onSelect,
  noun,
}: {
  check: ManifestCheck;
  value: string;
  onSelect: (span: TextSpan) => void;
  noun: string;
}) {
  switch (check.state) {
    case "empty":
      return noun === "manifest" ? (
        <Text size="sm" c="dimmed">
          Paste or type a manifest: a JSON object with at least <Code>{'"version": "1"'}</Code>.
        </Text>
      ) : (
        <Text size="sm" c="dimmed">
          Type the {noun} as a JSON object.
        </Text>
      );
    case "syntax": {
      const span = syntaxErrorSpan(value, check.message);
      return (
        <Alert color="red" icon={<IconAlertTriangle aria-hidden />} title="Not valid JSON" p="xs">
          <Text size="sm">
            {check.message}
            {span && (
              <>
                {" "}
                <Anchor component="button" type="button" size="sm" onClick={() => onSelect(span)}>
                  Go to line {span.line}, column {span.column}
                </Anchor>
              </>
            )}
          </Text>
        </Alert>
      );
    }
    case "checking":
      return (
        <Group gap="xs">
          <Loader size="xs" aria-hidden />
          <Text size="sm" c="dimmed">
            Checking the {noun}…
          </Text>
        </Group>
      );
    case "failed":
      return (
        <Alert color="red" icon={<IconAlertTriangle aria-hidden />} title={`Could not check the ${noun}`} p="xs">
          <Text size="sm">{describeError(check.error)}</Text>
        </Alert>
      );
    case "checked":
      return check.valid ? (
        <Group gap="xs">
          <IconCircleCheck size={18} color="var(--mantine-color-green-filled)" aria-hidden />
          <Text size="sm" c="green" fw={500}>
            Valid bank-template {noun}
            {check.warnings.length > 0 && ` (${check.warnings.length} warning${check.warnings.length > 1 ? "s" : ""})`}
          </Text>
        </Group>
      ) : (
        <Group gap="xs">
          <IconAlertTriangle size={18} color="var(--mantine-color-red-filled)" aria-hidden />
          <Text size="sm" c="red" fw={500}>
            {check.errors.length} problem{check.errors.length > 1 ? "s" : ""} to fix before saving
          </Text>
        </Group>
      );
  }
}

function IssueList({
  title,
  color,
  issues,
  text,
  onSelect,
}: {
  title: string;
  color: "red" | "yellow";
  issues: FieldError[];
  text: string;
  onSelect: (span: TextSpan) => void;
}) {
  const headingId = useId();
  if (issues.length === 0) return null;
  return (
    <Box mb="xs">
      <Text size="xs" fw={700} tt="uppercase" c="dimmed" mb={4} id={headingId}>
        {title}
      </Text>
      <List
        spacing={4}
        size="sm"
        aria-labelledby={headingId}
        icon={
          color === "red" ? (
            <IconAlertTriangle size={14} color="var(--mantine-color-red-filled)" aria-hidden />
          ) : (
            <IconInfoCircle size={14} color="var(--mantine-color-yellow-filled)" aria-hidden />
          )
        }
        data-testid={`manifest-${color === "red" ? "errors" : "warnings"}`}
      >
        {issues.map((issue) => {
          const span = locateJsonPath(text, pathSegments(issue.path));
          return (
            <List.Item key={`${issue.path}-${issue.message}`}>
              <Group gap={6} wrap="wrap">
                <Badge variant="light" color={color} radius="sm" tt="none" ff="monospace" fw={500}>
                  {issue.path}
                </Badge>
                <Text size="sm" component="span">
                  {issue.message}
                </Text>
                {span && (
                  <Anchor
                    component="button"
                    type="button"
                    size="sm"
                    onClick={() => onSelect(span)}
                    aria-label={`Go to ${issue.path}, line ${span.line}`}
                  >
                    line {span.line}
                  </Anchor>
                )}
              </Group>
            </List.Item>
          );
        })}
      </List>
    </Box>
  );
}
