"use client";
import { ActionIcon, useComputedColorScheme, useMantineColorScheme } from "@mantine/core";
import { IconMoon, IconSun } from "@tabler/icons-react";
import { IdleTooltip } from "./IdleTooltip";

/** Switches between the light and dark theme; the choice is remembered by Mantine (localStorage). */
export function ColorSchemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  // Read after mount, so the server render and the first client render agree.
  const scheme = useComputedColorScheme("light", { getInitialValueInEffect: true });
  const next = scheme === "dark" ? "light" : "dark";
  const label = `Switch to ${next} theme`;

  // The tooltip (Mantine's Tooltip on floating-ui, every console page's header) loads once the
  // page is idle rather than with the page; the button works and is labelled without it.
  return (
    <IdleTooltip label={label}>
      <ActionIcon variant="default" size="lg" aria-label={label} onClick={() => setColorScheme(next)}>
        {scheme === "dark" ? <IconSun size={18} aria-hidden /> : <IconMoon size={18} aria-hidden />}
      </ActionIcon>
    </IdleTooltip>
  );
}
