"use client";
import { Badge, NavLink, Stack, Text, VisuallyHidden } from "@mantine/core";
import {
  IconApi,
  IconBuildingBank,
  IconBuildingStore,
  IconDatabase,
  IconHistory,
  IconHome,
  IconServer,
  IconTemplate,
  IconUserCircle,
  IconUsers,
  IconWebhook,
} from "@tabler/icons-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import type { ComponentType } from "react";
import { useUpdateCounts } from "@/lib/client/hooks/templates";
import { useConsoleUser } from "./console-user";

interface NavItem {
  href: string;
  label: string;
  icon: ComponentType<{ size?: number; "aria-hidden"?: boolean }>;
}

const MAIN_NAV: NavItem[] = [
  { href: "/", label: "Home", icon: IconHome },
  { href: "/sources", label: "Sources", icon: IconDatabase },
  { href: "/marketplace", label: "Marketplace", icon: IconBuildingStore },
  { href: "/templates", label: "Templates", icon: IconTemplate },
  { href: "/banks", label: "Banks", icon: IconBuildingBank },
  { href: "/webhooks", label: "Webhooks", icon: IconWebhook },
  { href: "/account", label: "Account", icon: IconUserCircle },
];

const ADMIN_NAV: NavItem[] = [
  { href: "/admin/users", label: "Users", icon: IconUsers },
  { href: "/admin/sources", label: "Server sources", icon: IconServer },
  { href: "/admin/webhooks", label: "Server webhooks", icon: IconWebhook },
  { href: "/admin/audit", label: "Audit log", icon: IconHistory },
];

const REFERENCE_NAV: NavItem[] = [{ href: "/api-reference", label: "API reference", icon: IconApi }];

/** The digits of a count beside a nav entry; screen readers hear it as the entry's description instead. */
function NavCount({ count }: { count: number }) {
  return (
    <Badge size="sm" circle={count < 10} color="blue" aria-hidden data-testid="nav-update-count">
      {count}
    </Badge>
  );
}

function NavSection({
  title,
  items,
  onNavigate,
  counts = {},
}: {
  title?: string;
  items: NavItem[];
  onNavigate: () => void;
  /** Badges by href. */
  counts?: Record<string, { count: number; what: string }>;
}) {
  const pathname = usePathname();
  return (
    <Stack gap={2} component="ul" style={{ listStyle: "none", padding: 0, margin: 0 }} aria-label={title}>
      {title && (
        <Text component="li" size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt="md" pb={4} aria-hidden>
          {title}
        </Text>
      )}
      {items.map(({ href, label, icon: Icon }) => {
        const active = pathname === href || pathname.startsWith(`${href}/`);
        const count = counts[href]?.count ? counts[href] : null;
        const descriptionId = `nav-count${href.replaceAll("/", "-")}`;
        return (
          <li key={href}>
            <NavLink
              component={Link}
              href={href}
              label={label}
              active={active}
              aria-current={active ? "page" : undefined}
              leftSection={<Icon size={18} aria-hidden />}
              rightSection={count && <NavCount count={count.count} />}
              aria-describedby={count ? descriptionId : undefined}
              onClick={onNavigate}
            />
            {/* Beside the link, not in it: the link's name stays its label. */}
            {count && (
              <VisuallyHidden id={descriptionId}>
                {count.count} {count.what}
              </VisuallyHidden>
            )}
          </li>
        );
      })}
    </Stack>
  );
}

/** The console's navigation; the Admin section exists only for admins. */
export function ConsoleNav({ onNavigate }: { onNavigate: () => void }) {
  const user = useConsoleUser();
  // Templates (the user's and, for admins, the server's) whose source has a newer revision.
  const updates = useUpdateCounts(user.role === "admin");
  const waiting = updates.personal + updates.server;
  const what = `${waiting === 1 ? "template with an update" : "templates with updates"}${user.role === "admin" ? ", yours and the server's" : ""}`;
  const counts = { "/templates": { count: waiting, what } };
  return (
    <>
      <NavSection items={MAIN_NAV} onNavigate={onNavigate} counts={counts} />
      {user.role === "admin" && <NavSection title="Admin" items={ADMIN_NAV} onNavigate={onNavigate} />}
      <NavSection title="Reference" items={REFERENCE_NAV} onNavigate={onNavigate} />
    </>
  );
}
