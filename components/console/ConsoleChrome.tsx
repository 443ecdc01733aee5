import type { ReactNode } from "react";
import type { ConsoleUser } from "@/lib/contracts/identity/console-user";
import { ConsoleProviders } from "./ConsoleProviders";
import { ConsoleShell } from "./ConsoleShell";

/** What every signed-in page sits in: the console's client context, header and navigation. */
export function ConsoleChrome({ user, children }: { user: ConsoleUser; children: ReactNode }) {
  return (
    <ConsoleProviders user={user}>
      <ConsoleShell>{children}</ConsoleShell>
    </ConsoleProviders>
  );
}
