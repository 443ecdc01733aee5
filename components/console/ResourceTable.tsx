"use client";
import { Button, Group, type MantineBreakpoint, VisuallyHidden } from "@mantine/core";
import { type ReactNode, useId } from "react";
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
  testId?: string;
  /** The rows (Table.Tr). */
  children: ReactNode;
}

/** A table of API resources: header cells scoped as columns, an actions column, sideways scrolling. */
export function ResourceTable({ columns, actions = false, caption, minWidth = 300, testId, children, ...tableProps }: ResourceTableProps) {
  const captionId = useId();
  return (
    <ScrollRegion labelledBy={captionId}>
      <Table data-testid={testId} miw={minWidth} {...tableProps}>
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

export interface RowAction {
  /** The visible label ("Delete"). */
  label: string;
  /** The accessible name, naming the row ("Delete user carol"). */
  ariaLabel: string;
  onClick: () => void;
  /** A destructive action: red and subtle. */
  danger?: boolean;
  icon?: ReactNode;
}

/** The last cell of a row: its buttons, right-aligned, on one line unless `wrap`. */
export function RowActions({ actions, gap = "xs", wrap = false }: { actions: RowAction[]; gap?: number | "xs"; wrap?: boolean }) {
  return (
    <Table.Td>
      <Group gap={gap} justify="flex-end" wrap={wrap ? "wrap" : "nowrap"}>
        {actions.map((action) => (
          <Button
            key={action.label}
            size="xs"
            variant={action.danger ? "subtle" : "light"}
            color={action.danger ? "red" : undefined}
            leftSection={action.icon}
            aria-label={action.ariaLabel}
            onClick={action.onClick}
          >
            {action.label}
          </Button>
        ))}
      </Group>
    </Table.Td>
  );
}
