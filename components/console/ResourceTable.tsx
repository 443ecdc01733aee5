"use client";
import { Button, Group, VisuallyHidden, type MantineBreakpoint } from "@mantine/core";
import { Table, type TableProps } from "./Table";
import type { ReactNode } from "react";

export interface ResourceColumn {
  label: ReactNode;
  /** Narrow screens leave the column out (say what matters in the row header instead). */
  visibleFrom?: MantineBreakpoint;
}

interface ResourceTableProps extends Omit<TableProps, "children"> {
  columns: ResourceColumn[];
  /** Adds a last column of row actions, named for screen readers only. */
  actions?: boolean;
  caption?: ReactNode;
  /** Below this width the table scrolls sideways instead of squeezing. */
  minWidth?: number;
  testId?: string;
  /** The rows (Table.Tr). */
  children: ReactNode;
}

/** A table of API resources: header cells scoped as columns, an actions column, sideways scrolling. */
export function ResourceTable({ columns, actions = false, caption, minWidth = 300, testId, children, ...tableProps }: ResourceTableProps) {
  return (
    // The browser's own sideways scrolling: Table.ScrollContainer's ScrollArea brings
    // floating-ui (~20 kB gzipped) into the first load of every page with a table.
    <div style={{ overflowX: "auto" }}>
      <Table data-testid={testId} miw={minWidth} {...tableProps}>
        {caption && <Table.Caption>{caption}</Table.Caption>}
        <Table.Thead>
          <Table.Tr>
            {columns.map((column, i) => (
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
    </div>
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

/** The last cell of a row: its buttons, right-aligned, never wrapping. */
export function RowActions({ actions, gap = "xs" }: { actions: RowAction[]; gap?: number | "xs" }) {
  return (
    <Table.Td>
      <Group gap={gap} justify="flex-end" wrap="nowrap">
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
