"use client";
import { NavLink, Stack, Text } from "@mantine/core";
import {
  IconApi,
  IconBuildingBank,
  IconBuildingStore,
  IconDatabase,
  IconServer,
  IconTemplate,
  IconUserCircle,
  IconUsers,
} from "@tabler/icons-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import type { ComponentType } from "react";
import { useConsoleUser } from "./console-user";

interface NavItem {
  href: string;
  label: string;
  icon: ComponentType<{ size?: number; "aria-hidden"?: boolean }>;
}

const MAIN_NAV: NavItem[] = [
  { href: "/sources", label: "Sources", icon: IconDatabase },
  { href: "/marketplace", label: "Marketplace", icon: IconBuildingStore },
  { href: "/templates", label: "Templates", icon: IconTemplate },
  { href: "/banks", label: "Banks", icon: IconBuildingBank },
  { href: "/account", label: "Account", icon: IconUserCircle },
];

const ADMIN_NAV: NavItem[] = [
  { href: "/admin/users", label: "Users", icon: IconUsers },
  { href: "/admin/sources", label: "Server sources", icon: IconServer },
];

const REFERENCE_NAV: NavItem[] = [{ href: "/api-reference", label: "API reference", icon: IconApi }];

function NavSection({ title, items, onNavigate }: { title?: string; items: NavItem[]; onNavigate: () => void }) {
  const pathname = usePathname();
  return (
    <Stack gap={2} component="ul" style={{ listStyle: "none", padding: 0, margin: 0 }} aria-label={title}>
      {title && (
        <Text component="li" size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt="md" pb={4} aria-hidden>
          {title}
        </Text>
      )}
      {items.map(({ href, label, icon: Icon }) => {
        const active = pathname === href || pathname.startsWith(href + "/");
        return (
          <li key={href}>
            <NavLink
              component={Link}
              href={href}
              label={label}
              active={active}
              aria-current={active ? "page" : undefined}
              leftSection={<Icon size={18} aria-hidden />}
              onClick={onNavigate}
            />
          </li>
        );
      })}
    </Stack>
  );
}

/** The console's navigation; the Admin section exists only for admins. */
export function ConsoleNav({ onNavigate }: { onNavigate: () => void }) {
  const user = useConsoleUser();
  return (
    <>
      <NavSection items={MAIN_NAV} onNavigate={onNavigate} />
      {user.role === "admin" && <NavSection title="Admin" items={ADMIN_NAV} onNavigate={onNavigate} />}
      <NavSection title="Reference" items={REFERENCE_NAV} onNavigate={onNavigate} />
    </>
  );
}
