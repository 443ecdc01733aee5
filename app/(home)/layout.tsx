import type { ReactNode } from "react";
import { ConsoleChrome } from "@/components/console/ConsoleChrome";
import { currentConsoleUser } from "@/lib/auth/console-user";

// `/` is two pages: signed in, the console's Home inside the console's chrome; otherwise the
// landing page on its own. The session is checked here (not only its cookie, as proxy.ts does),
// so a visitor whose session ended sees the landing page rather than a console that refuses them.
export default async function HomeLayout({ children }: { children: ReactNode }) {
  const user = await currentConsoleUser();
  return user ? <ConsoleChrome user={user}>{children}</ConsoleChrome> : children;
}
