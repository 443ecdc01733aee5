import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { ConsoleChrome } from "@/components/console/ConsoleChrome";
import { currentConsoleUser } from "@/lib/auth/console-user";

// Every console page: signed-in users only. proxy.ts already sent visitors without a
// session cookie to /signin with their destination; this catches expired or forged
// cookies and users deactivated since they signed in.
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const user = await currentConsoleUser();
  if (!user) redirect("/signin");
  return <ConsoleChrome user={user}>{children}</ConsoleChrome>;
}
