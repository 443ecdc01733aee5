"use client";
import { ConsoleMenu } from "./ConsoleMenu";
import type { RowAction } from "./RowActions";
import { RowActionsButton } from "./RowActionsMenu";

/** The row's menu proper, loaded by `RowActionsMenu` when its button is first pressed (see LazyMenu). */
export default function RowActionsMenuDropdown({ name, actions }: { name: string; actions: RowAction[] }) {
  return <ConsoleMenu target={(ref) => <RowActionsButton ref={ref} name={name} />} actions={actions} />;
}
