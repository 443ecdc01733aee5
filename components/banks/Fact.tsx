"use client";
import { DataList } from "@mantine/core";
import type { ReactNode } from "react";

/** One labelled fact of a bank's About or Provenance card. */
export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <DataList.Item>
      <DataList.ItemLabel>{label}</DataList.ItemLabel>
      <DataList.ItemValue>{children}</DataList.ItemValue>
    </DataList.Item>
  );
}
