"use client";
import { Card, type CardProps, Title } from "@mantine/core";
import { type ReactNode, useId } from "react";

/** A bordered page section whose heading names it for screen readers (a labelled region). */
export function SectionCard({ title, children, ...card }: { title: string; children: ReactNode } & Omit<CardProps, "title">) {
  const headingId = useId();
  return (
    <Card withBorder padding="md" component="section" aria-labelledby={headingId} {...card}>
      <Title order={2} size="h4" id={headingId} mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}
