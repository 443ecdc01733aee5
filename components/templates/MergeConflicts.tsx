"use client";
import { Box, Button, Card, Code, Group, Radio, SimpleGrid, Stack, Text, Textarea, Title, VisuallyHidden } from "@mantine/core";
import { createContext, type ReactNode, use, useId, useMemo } from "react";
import { JsonEditor } from "@/components/editor/JsonEditor";
import type { FieldError } from "@/lib/contracts/problem-schema";
import type { TemplateContent } from "@/lib/contracts/templates/content-fields";
import type { MergeConflict } from "@/lib/contracts/templates/merge";
import { formatJson } from "./json-text";
import classes from "./MergeConflicts.module.css";
import { conflictTitle, editableText, editedChoice, editedValue, isTextConflict, type MergeChoice } from "./merge-choices";
import { type WordRun, wordDiff } from "./word-diff";

type Side = "base" | "local" | "upstream";

/** Whether `path` is `at` or a path inside it. */
const isWithin = (path: string, at: string) => path === at || path.startsWith(`${at}.`) || path.startsWith(`${at}[`);

/**
 * What the sides are called: an update's base (as installed) and upstream, or, for a save that
 * found the resource changed meanwhile, the version it started from and theirs.
 */
export interface SideNames {
  /** The base side's heading. */
  base: string;
  /** The other side's heading and choice ("Upstream"). */
  theirs: string;
  /** The other side's, within a sentence ("upstream's"). */
  theirsOwn: string;
  /** A path the other side deleted. */
  theirsDeleted: string;
  /** My side's heading and choice ("Mine"). */
  mine: string;
  /** My side's, within a sentence ("mine"). */
  mineOwn: string;
}

const UPDATE_SIDES: SideNames = {
  base: "Base (as installed)",
  theirs: "Upstream",
  theirsOwn: "upstream's",
  theirsDeleted: "deleted upstream",
  mine: "Mine",
  mineOwn: "mine",
};

const SideNamesContext = createContext(UPDATE_SIDES);

const sidesOf = (names: SideNames): { side: Side; label: string }[] => [
  { side: "base", label: names.base },
  { side: "local", label: names.mine },
  { side: "upstream", label: names.theirs },
];

/** What a side without the path means: never there (base), or deleted on that side. */
const absent = (names: SideNames): Record<Side, string> => ({
  base: "not there (added on both sides)",
  local: "deleted here",
  upstream: names.theirsDeleted,
});

/** How the words only one side has are marked: struck out in mine, underlined in theirs, and said to screen readers. */
const OWN_WORDS = {
  local: { Tag: "del", className: classes.ownLocal },
  upstream: { Tag: "ins", className: classes.ownUpstream },
} as const;

/** A text side's words, those the other side lacks marked. */
function MarkedWords({ runs, side }: { runs: WordRun[]; side: "local" | "upstream" }) {
  const { Tag, className } = OWN_WORDS[side];
  const names = use(SideNamesContext);
  const said = `only in ${side === "local" ? names.mineOwn : names.theirsOwn}`;
  return runs.map((run, i) =>
    run.kind === "shared" ? (
      run.text
    ) : (
      // biome-ignore lint/suspicious/noArrayIndexKey: the runs are rebuilt whole with each text, never reordered.
      <Tag key={i} className={className}>
        <VisuallyHidden>[{said}: </VisuallyHidden>
        {run.text}
        <VisuallyHidden>]</VisuallyHidden>
      </Tag>
    ),
  );
}

/** One side's value at the conflicting path: text as it reads (its own words marked), other values as JSON, or that the path is not there. */
function SideValue({ conflict, side, label, runs }: { conflict: MergeConflict; side: Side; label: string; runs?: WordRun[] }) {
  const missing = conflict.missing.includes(side);
  const value = conflict[side];
  const names = use(SideNamesContext);
  let shown: ReactNode;
  if (missing) {
    shown = (
      <Text size="sm" fs="italic" c="dimmed">
        {absent(names)[side]}
      </Text>
    );
  } else if (typeof value === "string") {
    shown = <Box className={classes.text}>{runs && side !== "base" ? <MarkedWords runs={runs} side={side} /> : value}</Box>;
  } else {
    shown = (
      <Code block className={classes.json}>
        {formatJson(value)}
      </Code>
    );
  }
  return (
    <Stack gap={4} data-testid={`conflict-${side}`}>
      <Text size="xs" fw={600} c="dimmed">
        {label}
      </Text>
      {shown}
    </Stack>
  );
}

/** The value typed for a conflict: plain text when the sides hold text, else JSON; checked as it is typed. */
function ValueEditor({
  conflict,
  title,
  text,
  onChange,
  errors,
}: {
  conflict: MergeConflict;
  title: string;
  text: string;
  onChange: (text: string) => void;
  /** What the manifest check found wrong at or inside this path. */
  errors: FieldError[];
}) {
  const problemId = useId();
  const edited = useMemo(() => editedValue(conflict, text), [conflict, text]);
  const found = errors.map((e) => `${e.path.slice(conflict.path.length).replace(/^\./, "")} ${e.message}`.trim());
  const problem = "problem" in edited ? `The value ${edited.problem}.` : found.length ? `The value ${found.join("; ")}.` : null;
  const label = `Edited value for ${title}`;
  const starts = (["local", "upstream"] as const).filter((side) => !conflict.missing.includes(side));
  const names = use(SideNamesContext);
  return (
    <Stack gap={4} data-testid="conflict-value">
      {isTextConflict(conflict) ? (
        <Textarea
          label={label}
          autosize
          minRows={2}
          maxRows={14}
          value={text}
          onChange={(e) => onChange(e.currentTarget.value)}
          error={problem}
        />
      ) : (
        <>
          <Text size="sm" fw={500} aria-hidden>
            {label} (JSON)
          </Text>
          <JsonEditor
            value={text}
            onChange={onChange}
            label={`${label} (JSON)`}
            invalid={problem !== null}
            describedBy={problem ? problemId : undefined}
            minHeight="5em"
            maxHeight="24em"
          />
          {problem && (
            <Text size="xs" c="red" id={problemId}>
              {problem}
            </Text>
          )}
        </>
      )}
      <Group gap="xs">
        {starts.map((side) => (
          <Button key={side} size="compact-xs" variant="subtle" onClick={() => onChange(editableText(conflict, side))}>
            Start again from {side === "local" ? names.mineOwn : names.theirsOwn}
          </Button>
        ))}
      </Group>
    </Stack>
  );
}

/** One conflicting path: its three sides (stacked on a narrow screen), what to keep, and the value typed when that is the choice. */
function ConflictCard({
  conflict,
  title,
  choice,
  onChoose,
  errors,
}: {
  conflict: MergeConflict;
  title: string;
  choice: MergeChoice | undefined;
  onChoose: (choice: MergeChoice) => void;
  errors: FieldError[];
}) {
  const words = useMemo(
    () =>
      typeof conflict.local === "string" && typeof conflict.upstream === "string" && conflict.missing.length === 0
        ? wordDiff(conflict.local, conflict.upstream)
        : null,
    [conflict],
  );
  const names = use(SideNamesContext);
  const choose = (take: string) => {
    if (take === "value") onChoose(choice?.take === "value" ? choice : editedChoice(conflict));
    else onChoose({ take: take as "local" | "upstream" });
  };
  return (
    <Card withBorder padding="sm" data-testid="merge-conflict" data-path={conflict.path}>
      <Stack gap="sm">
        <Group gap="xs" wrap="wrap">
          <Title order={3} size="h6">
            {title}
          </Title>
          <Code fz="xs">{conflict.path}</Code>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          {sidesOf(names).map(({ side, label }) => (
            <SideValue
              key={side}
              conflict={conflict}
              side={side}
              label={label}
              runs={side === "local" ? words?.mine : side === "upstream" ? words?.theirs : undefined}
            />
          ))}
        </SimpleGrid>
        {words && (
          <Text size="xs" c="dimmed">
            Struck through: words only in {names.mineOwn}. Underlined: words only in {names.theirsOwn}.
          </Text>
        )}
        <Radio.Group label={`Keep for ${title}`} value={choice?.take ?? null} onChange={choose}>
          <Group gap="lg" mt={4}>
            <Radio value="local" label={names.mine} />
            <Radio value="upstream" label={names.theirs} />
            <Radio value="value" label="An edited value" />
          </Group>
        </Radio.Group>
        {choice?.take === "value" && (
          <ValueEditor
            conflict={conflict}
            title={title}
            text={choice.text}
            onChange={(text) => onChoose({ take: "value", text })}
            errors={errors}
          />
        )}
      </Stack>
    </Card>
  );
}

/**
 * The paths an update with merge=true (or a save that found the resource changed meanwhile)
 * could not decide: each with base, mine and upstream's (theirs) side by side, the words of long
 * texts that differ marked, and a choice of mine, theirs or a value edited from either.
 */
export function MergeConflicts({
  conflicts,
  choices,
  onChoose,
  local,
  upstream,
  errors,
  sides = UPDATE_SIDES,
  titleOf = (conflict) => conflictTitle(conflict, local as TemplateContent, upstream as TemplateContent),
}: {
  conflicts: MergeConflict[];
  choices: Readonly<Record<string, MergeChoice>>;
  onChoose: (path: string, choice: MergeChoice) => void;
  /** The template now and the source's latest (or mine and theirs), which name the entries the paths point into. */
  local: TemplateContent | object;
  upstream: TemplateContent | object;
  /** What is wrong with the manifest the choices make, shown at the edited values they are in. */
  errors: FieldError[];
  /** What the sides are called; an update's by default. */
  sides?: SideNames;
  /** A conflict's path in words; a template's (conflictTitle) by default. */
  titleOf?: (conflict: MergeConflict) => string;
}) {
  return (
    <SideNamesContext value={sides}>
      <Stack gap="md">
        {conflicts.map((conflict) => (
          <ConflictCard
            key={conflict.path}
            conflict={conflict}
            title={titleOf(conflict)}
            choice={choices[conflict.path]}
            onChoose={(choice) => onChoose(conflict.path, choice)}
            errors={errors.filter((e) => isWithin(e.path, conflict.path))}
          />
        ))}
      </Stack>
    </SideNamesContext>
  );
}
