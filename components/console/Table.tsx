"use client";
import { Box, type BoxProps, type ElementProps, getSpacing, type MantineSpacing, TableTd } from "@mantine/core";
import { type CSSProperties, createContext, useContext } from "react";

// Mantine's Table, as the console uses it, without what Mantine's own brings along: its
// `Table.ScrollContainer` is a static member, so every page with a table shipped Mantine's
// ScrollArea and, through it, @floating-ui/react and tabbable (~27 kB gzipped together). The
// same elements, Mantine's own class names (styled by @mantine/core/styles.css), the same
// data attributes and CSS variables, so tables look and behave as before. Sideways scrolling
// is the browser's own (see ResourceTable).

/** Mantine's class names of Table's parts (`TableTd` is light: it does not import Table). */
const classes = TableTd.classes as Record<"table" | "th" | "tr" | "td" | "thead" | "tbody" | "caption", string>;

const cx = (...names: (string | undefined | false)[]) => names.filter(Boolean).join(" ");

interface TableContextValue {
  striped?: "odd" | "even";
  highlightOnHover?: boolean;
  withRowBorders: boolean;
  withColumnBorders?: boolean;
  captionSide: "top" | "bottom";
}

const TableContext = createContext<TableContextValue>({ withRowBorders: true, captionSide: "bottom" });

export interface TableProps extends BoxProps, ElementProps<"table"> {
  /** Stripes every odd (or even) row of the body. */
  striped?: boolean | "odd" | "even";
  /** Highlights the row under the pointer. */
  highlightOnHover?: boolean;
  withTableBorder?: boolean;
  withColumnBorders?: boolean;
  /** Borders between rows, as Mantine draws them by default. */
  withRowBorders?: boolean;
  /** Cells' padding: a theme spacing key or a number of pixels (Mantine's default: 7). */
  verticalSpacing?: MantineSpacing;
  horizontalSpacing?: MantineSpacing;
  captionSide?: "top" | "bottom";
  layout?: CSSProperties["tableLayout"];
  tabularNums?: boolean;
}

function TableRoot({
  striped,
  highlightOnHover,
  withTableBorder,
  withColumnBorders,
  withRowBorders = true,
  verticalSpacing = 7,
  horizontalSpacing,
  captionSide = "bottom",
  layout,
  tabularNums,
  className,
  __vars,
  mod,
  ...others
}: TableProps) {
  const context: TableContextValue = {
    striped: striped === true ? "odd" : striped || undefined,
    highlightOnHover,
    withRowBorders,
    withColumnBorders,
    captionSide,
  };
  return (
    <TableContext.Provider value={context}>
      <Box
        component="table"
        className={cx(classes.table, "mantine-Table-table", className)}
        mod={[{ "with-table-border": withTableBorder, "tabular-nums": tabularNums }, mod]}
        __vars={{
          "--table-layout": layout,
          "--table-caption-side": captionSide,
          "--table-horizontal-spacing": getSpacing(horizontalSpacing),
          "--table-vertical-spacing": getSpacing(verticalSpacing),
          ...__vars,
        }}
        {...others}
      />
    </TableContext.Provider>
  );
}

type PartProps<E extends "th" | "td" | "tr" | "thead" | "tbody" | "caption"> = BoxProps & ElementProps<E>;

function Th({ className, ...others }: PartProps<"th">) {
  const ctx = useContext(TableContext);
  return (
    <Box
      component="th"
      className={cx(classes.th, "mantine-Table-th", className)}
      mod={{ "with-column-border": ctx.withColumnBorders }}
      {...others}
    />
  );
}

function Td({ className, ...others }: PartProps<"td">) {
  const ctx = useContext(TableContext);
  return (
    <Box
      component="td"
      className={cx(classes.td, "mantine-Table-td", className)}
      mod={{ "with-column-border": ctx.withColumnBorders }}
      {...others}
    />
  );
}

function Tr({ className, ...others }: PartProps<"tr">) {
  const ctx = useContext(TableContext);
  return (
    <Box
      component="tr"
      className={cx(classes.tr, "mantine-Table-tr", className)}
      mod={{ "with-row-border": ctx.withRowBorders, striped: ctx.striped, hover: ctx.highlightOnHover }}
      {...others}
    />
  );
}

function Thead({ className, ...others }: PartProps<"thead">) {
  return <Box component="thead" className={cx(classes.thead, "mantine-Table-thead", className)} {...others} />;
}

function Tbody({ className, ...others }: PartProps<"tbody">) {
  return <Box component="tbody" className={cx(classes.tbody, "mantine-Table-tbody", className)} {...others} />;
}

function Caption({ className, ...others }: PartProps<"caption">) {
  const ctx = useContext(TableContext);
  return (
    <Box
      component="caption"
      className={cx(classes.caption, "mantine-Table-caption", className)}
      mod={{ side: ctx.captionSide }}
      {...others}
    />
  );
}

/** A table styled as Mantine's: `Table`, `Table.Thead`, `Table.Tr`, `Table.Th`, … */
export const Table = Object.assign(TableRoot, { Thead, Tbody, Tr, Th, Td, Caption });
