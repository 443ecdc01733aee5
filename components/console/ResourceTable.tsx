"use client";
import { ActionIcon, Button, Group, type MantineBreakpoint, VisuallyHidden } from "@mantine/core";
import Link from "next/link";
import type { ReactNode } from "react";
import { IdleTooltip } from "./IdleTooltip";
import classes from "./ResourceTable.module.css";
import { RowActionsMenu } from "./RowActionsMenu";
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
  caption?: ReactNode;
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
  return (
    // The browser's own sideways scrolling: Table.ScrollContainer's ScrollArea brings
    // floating-ui (~20 kB gzipped) into the first load of every page with a table.
    // Focusable, so keyboard users can scroll a table wider than the screen (WCAG 2.1.1).
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (axe scrollable-region-focusable); this tab stop is that region.
    <div style={{ overflowX: "auto" }} tabIndex={0} {...(typeof caption === "string" ? { role: "region", "aria-label": caption } : {})}>
      <Table
        data-testid={testId}
        miw={stacked ? { base: 0, sm: minWidth } : minWidth}
        className={stacked ? classes.stacked : undefined}
        {...tableProps}
      >
        {caption && <Table.Caption>{caption}</Table.Caption>}
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
    </div>
  );
}

export interface RowAction {
  /** The visible label ("Delete"). */
  label: string;
  /** The accessible name, naming the row ("Delete user carol"). */
  ariaLabel: string;
  /** What the action does; an action with `href` is a link instead. */
  onClick?: () => void;
  href?: string;
  /** A destructive action: red and subtle. */
  danger?: boolean;
  icon?: ReactNode;
  /** Only the icon shows (the label as its tooltip) where the buttons stand side by side; not for links. */
  iconOnly?: boolean;
}

function RowActionButton({ action }: { action: RowAction }) {
  const color = action.danger ? "red" : undefined;
  if (action.iconOnly) {
    return (
      <IdleTooltip label={action.label}>
        <ActionIcon variant="subtle" color={color} aria-label={action.ariaLabel} onClick={action.onClick}>
          {action.icon}
        </ActionIcon>
      </IdleTooltip>
    );
  }
  const look = {
    size: "xs",
    variant: action.danger ? "subtle" : "light",
    color,
    leftSection: action.icon,
    "aria-label": action.ariaLabel,
  } as const;
  return action.href ? (
    <Button component={Link} href={action.href} {...look}>
      {action.label}
    </Button>
  ) : (
    <Button onClick={action.onClick} {...look}>
      {action.label}
    </Button>
  );
}

/**
 * The last cell of a row: its buttons, right-aligned, on one line unless `wrap`. Below the
 * `sm` breakpoint two actions or more become one menu ("Actions for {name}"), so each stays
 * reachable on a phone instead of being pushed out of the table.
 */
export function RowActions({
  actions,
  name,
  gap = "xs",
  wrap = false,
}: {
  actions: RowAction[];
  /** The row's name, for the menu button ("Actions for carol"). */
  name: string;
  gap?: number | "xs";
  wrap?: boolean;
}) {
  const collapse = actions.length > 1;
  return (
    <Table.Td>
      <Group gap={gap} justify="flex-end" wrap={wrap ? "wrap" : "nowrap"} visibleFrom={collapse ? "sm" : undefined}>
        {actions.map((action) => (
          <RowActionButton key={action.label} action={action} />
        ))}
      </Group>
      {collapse && (
        <Group justify="flex-end" hiddenFrom="sm">
          <RowActionsMenu name={name} actions={actions} />
        </Group>
      )}
    </Table.Td>
  );
}
