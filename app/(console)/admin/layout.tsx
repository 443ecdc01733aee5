import type { ReactNode } from "react";
import { ForbiddenPage } from "@/components/console/ForbiddenPage";
import { currentConsoleUser } from "@/lib/auth/console-user";

// Admin pages: members get a plain 403 page instead (the API refuses them as well).
export default async function AdminLayout({ children }: { children: ReactNode }) {
  const user = await currentConsoleUser();
  if (user?.role !== "admin") return <ForbiddenPage userId={user?.id ?? "unknown"} />;
  return children;
}
