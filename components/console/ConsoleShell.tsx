"use client";
import { Anchor, AppShell, Burger, Group, Text } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { IconStack2 } from "@tabler/icons-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { ColorSchemeToggle } from "./ColorSchemeToggle";
import { ConsoleNav } from "./ConsoleNav";
import classes from "./ConsoleShell.module.css";
import { NOTICE_SLOT_ID } from "./notice-slot";
import { UserMenu } from "./UserMenu";

const NAV_ID = "console-navigation";

/** Header, navigation (a drawer behind the burger below 768 px) and the page. */
export function ConsoleShell({ children }: { children: ReactNode }) {
  const [navOpen, { toggle, close }] = useDisclosure(false);
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 240, breakpoint: "sm", collapsed: { mobile: !navOpen } }} padding="md">
      <a href="#main-content" className={classes.skipLink}>
        Skip to content
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={navOpen}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={navOpen ? "Close navigation" : "Open navigation"}
              aria-expanded={navOpen}
              aria-controls={NAV_ID}
            />
            <Anchor component={Link} href="/" underline="never" c="inherit" aria-label="Bank Templates Console, home">
              <Group gap={6} wrap="nowrap">
                <IconStack2 size={22} aria-hidden />
                <Text fw={700}>Bank Templates</Text>
              </Group>
            </Anchor>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <ColorSchemeToggle />
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar id={NAV_ID} aria-label="Console" p="xs">
        {/* The browser's own scrolling: Mantine's ScrollArea brings floating-ui (~20 kB gzipped)
            into every console page's first load for a navigation that rarely overflows. */}
        <AppShell.Section grow style={{ overflowY: "auto", minHeight: 0 }}>
          <ConsoleNav onNavigate={close} />
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main id="main-content" tabIndex={-1}>
        {/* Notices about the whole console take their own place above the page, never over it. */}
        <div id={NOTICE_SLOT_ID} className={classes.notices} />
        {children}
      </AppShell.Main>
    </AppShell>
  );
}
