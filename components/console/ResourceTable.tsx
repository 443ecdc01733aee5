"use client";
import { type MantineBreakpoint, VisuallyHidden } from "@mantine/core";
import { type ReactNode, useId } from "react";
import classes from "./ResourceTable.module.css";
import { ScrollRegion } from "./ScrollRegion";
import { Table, type TableProps } from "./Table";

interface ResourceColumn {
  label: ReactNode;
  /** Narrow screens leave the column out (say what matters in the row header instead). */
  visibleFrom?: MantineBreakpoint;
}

interface ResourceTableProps extends Omit<TableProps, "children"> {
  columns: ResourceColumn[];
  /** Adds a last column of row actions, named for screen readers only. */
  actions?: boolean;
  /** What the table lists, in what order; it also names the table's scrolling region. */
  caption: ReactNode;
  /** Below this width the table scrolls sideways instead of squeezing. */
  minWidth?: number;
  /**
   * On phones (below `sm`) each row becomes a card, each cell a line under its `data-label`:
   * for tables that cannot fit 390 px even with columns left out.
   */
  stacked?: boolean;
  testId?: string;
  /** The rows (Table.Tr). */
  children: ReactNode;
}

/** A table of API resources: header cells scoped as columns, an actions column, sideways scrolling. */
export function ResourceTable({
  columns,
  actions = false,
  caption,
  minWidth = 300,
  stacked = false,
  testId,
  children,
  ...tableProps
}: ResourceTableProps) {
  const captionId = useId();
  return (
    <ScrollRegion labelledBy={captionId}>
      <Table
        data-testid={testId}
        miw={stacked ? { base: 0, sm: minWidth } : minWidth}
        className={stacked ? classes.stacked : undefined}
        {...tableProps}
      >
        <Table.Caption id={captionId}>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a table's columns are fixed, and their labels need not be strings: the position is the column.
              <Table.Th key={i} scope="col" visibleFrom={column.visibleFrom}>
                {column.label}
              </Table.Th>
            ))}
            {actions && (
              <Table.Th scope="col">
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </ScrollRegion>
  );
}
