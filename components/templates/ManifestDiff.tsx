"use client";
import { Group, Paper, SegmentedControl, Switch, Text, VisuallyHidden } from "@mantine/core";
import { Fragment, useId, useMemo, useState } from "react";
import { ScrollRegion } from "@/components/console/ScrollRegion";
import { useNarrowScreen } from "@/components/console/useNarrowScreen";
import { plural } from "@/lib/shared/plural";
import { type DiffLine, foldUnchanged, lineDiff, type SideBySideRow, sideBySide } from "./line-diff";
import classes from "./ManifestDiff.module.css";

interface Props {
  before: string;
  after: string;
  beforeLabel: string;
  afterLabel: string;
}

/**
 * Two versions of a text compared line by line: inline (one column, − and + lines) or side by
 * side. Unchanged stretches fold away unless asked for. Screen readers hear "removed" and
 * "added" before each changed line.
 */
export function ManifestDiff({ before, after, beforeLabel, afterLabel }: Props) {
  const narrow = useNarrowScreen();
  const [view, setView] = useState<Mode | null>(null);
  const [showAll, setShowAll] = useState(false);
  const lines = useMemo(() => lineDiff(before, after), [before, after]);
  const added = lines.filter((l) => l.kind === "added").length;
  const removed = lines.filter((l) => l.kind === "removed").length;
  const mode = view ?? (narrow ? "inline" : "split");
  const captionId = useId();

  if (added === 0 && removed === 0) {
    return (
      <Text size="sm" c="dimmed" data-testid="manifest-diff">
        The manifests are the same.
      </Text>
    );
  }
  const shown = showAll ? [{ kind: "lines" as const, lines }] : foldUnchanged(lines);
  return (
    <div data-testid="manifest-diff">
      <Group justify="space-between" mb="xs" gap="sm">
        <Text size="sm" id={captionId}>
          <Text span c="green" fw={600}>
            {plural(added, "line")} added
          </Text>
          ,{" "}
          <Text span c="red" fw={600}>
            {removed} removed
          </Text>{" "}
          from {beforeLabel} to {afterLabel}
        </Text>
        <Group gap="sm">
          <Switch label="Show unchanged lines" checked={showAll} onChange={(e) => setShowAll(e.currentTarget.checked)} size="sm" />
          <SegmentedControl
            size="xs"
            aria-label="Diff layout"
            value={mode}
            onChange={(v) => setView(v as Mode)}
            data={[
              { value: "inline", label: "Inline" },
              { value: "split", label: "Side by side" },
            ]}
          />
        </Group>
      </Group>
      <Paper withBorder radius="sm">
        <ScrollRegion labelledBy={captionId} maxHeight={640}>
          <table className={classes.table} aria-labelledby={captionId}>
            {/* Keyed by layout: switching it mounts the other table afresh. */}
            <Fragment key={mode}>
              <Head mode={mode} beforeLabel={beforeLabel} afterLabel={afterLabel} />
              <Body mode={mode} shown={shown} />
            </Fragment>
          </table>
        </ScrollRegion>
      </Paper>
    </div>
  );
}

type Mode = "inline" | "split";
type Shown = ReturnType<typeof foldUnchanged>;

/** A line's key: its number in the text it belongs to (old numbers are unique among same and removed lines, new among added). */
const lineKey = (line: DiffLine) => (line.kind === "added" ? `new ${line.newNo}` : `old ${line.oldNo}`);
const rowKey = (row: SideBySideRow) => (row.left ? `old ${row.left.no}` : `new ${row.right?.no}`);

function Gap({ count, span }: { count: number; span: number }) {
  return (
    <tr className={classes.gap}>
      <td colSpan={span}>{plural(count, "unchanged line")}</td>
    </tr>
  );
}

const MARK = { added: "+", removed: "−", same: " " } as const;
const SAID = { added: "added: ", removed: "removed: ", same: "" } as const;

/** One column of a side-by-side row: line number and text, shaded when the line changed; blank when absent. */
function SideCells({ line, split = false }: { line: SideBySideRow["left"] | SideBySideRow["right"]; split?: boolean }) {
  const shade = !line ? classes.empty : line.kind === "same" ? "" : classes[line.kind];
  return (
    <>
      <td className={`${classes.number} ${split ? classes.split : ""} ${shade}`}>{line?.no}</td>
      <td className={`${classes.text} ${shade}`} data-change={line?.kind}>
        {line && (
          <>
            <VisuallyHidden>{SAID[line.kind]}</VisuallyHidden>
            {line.text}
          </>
        )}
      </td>
    </>
  );
}

/** The column heads: inline, a line number in each text, the change and the text; side by side, each text's label over its two columns. */
function Head({ mode, beforeLabel, afterLabel }: { mode: Mode; beforeLabel: string; afterLabel: string }) {
  if (mode === "inline") {
    return (
      <thead>
        <tr>
          <th scope="col">
            <VisuallyHidden>Line in {beforeLabel}</VisuallyHidden>
          </th>
          <th scope="col">
            <VisuallyHidden>Line in {afterLabel}</VisuallyHidden>
          </th>
          <th scope="col">
            <VisuallyHidden>Change</VisuallyHidden>
          </th>
          <th scope="col">
            <VisuallyHidden>Text</VisuallyHidden>
          </th>
        </tr>
      </thead>
    );
  }
  return (
    <thead>
      <tr>
        <th scope="col" colSpan={2} style={{ textAlign: "left", padding: "4px 8px" }}>
          <Text size="xs" fw={600}>
            {beforeLabel}
          </Text>
        </th>
        <th scope="col" colSpan={2} className={classes.split} style={{ textAlign: "left", padding: "4px 8px" }}>
          <Text size="xs" fw={600}>
            {afterLabel}
          </Text>
        </th>
      </tr>
    </thead>
  );
}

/** The shown stretches, a gap row for each folded one; inline a row a line, side by side a row a pair of lines. */
function Body({ mode, shown }: { mode: Mode; shown: Shown }) {
  return (
    <tbody>
      {shown.map((part) =>
        part.kind === "gap" ? (
          <Gap key={`gap ${part.start}`} count={part.count} span={4} />
        ) : (
          <Fragment key={lineKey(part.lines[0]!)}>
            {mode === "inline"
              ? part.lines.map((line: DiffLine) => (
                  <tr key={lineKey(line)} className={line.kind === "same" ? undefined : classes[line.kind]} data-change={line.kind}>
                    <td className={classes.number}>{line.kind !== "added" ? line.oldNo : ""}</td>
                    <td className={classes.number}>{line.kind !== "removed" ? line.newNo : ""}</td>
                    <td className={classes.marker} aria-hidden>
                      {MARK[line.kind]}
                    </td>
                    <td className={classes.text}>
                      <VisuallyHidden>{SAID[line.kind]}</VisuallyHidden>
                      {line.text}
                    </td>
                  </tr>
                ))
              : sideBySide(part.lines).map((row) => (
                  <tr key={rowKey(row)}>
                    <SideCells line={row.left} />
                    <SideCells line={row.right} split />
                  </tr>
                ))}
          </Fragment>
        ),
      )}
    </tbody>
  );
}
