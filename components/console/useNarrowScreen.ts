"use client";
import { useMediaQuery } from "@mantine/hooks";

/**
 * Whether the screen is narrower than Mantine's `sm` breakpoint (a phone), read as the component
 * first renders rather than in an effect after it: what it lays out for a phone is there from its
 * first paint, so nothing moves under a finger or pointer a moment after it appeared (a diff
 * switching to one column pushed the button below it down). Only for parts the browser renders
 * (after their data arrived), never the server, which cannot know the width.
 */
export const useNarrowScreen = (): boolean => useMediaQuery("(max-width: 48em)", undefined, { getInitialValueInEffect: false }) ?? false;
