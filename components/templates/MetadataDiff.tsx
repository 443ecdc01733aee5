"use client";
import { Text } from "@mantine/core";
import { ScrollRegion } from "@/components/console/ScrollRegion";
import { Table } from "@/components/console/Table";
import type { TemplateDetails } from "@/lib/contracts/templates/content-fields";
import { DETAIL_KEYS, detailLabel, showValue } from "./details-form";

/** The details that differ between two contents of a template, before beside after; only the changed fields. */
export function MetadataDiff({
  before,
  after,
  beforeLabel,
  afterLabel,
}: {
  before: TemplateDetails;
  after: TemplateDetails;
  beforeLabel: string;
  afterLabel: string;
}) {
  const changed = DETAIL_KEYS.filter((f) => JSON.stringify(before[f]) !== JSON.stringify(after[f]));
  if (changed.length === 0) {
    return (
      <Text size="sm" c="dimmed" data-testid="details-diff">
        {DETAIL_KEYS.map(detailLabel).join(", ")}: the same.
      </Text>
    );
  }
  return (
    <ScrollRegion label={`Details that differ from ${beforeLabel} to ${afterLabel}`}>
      <Table verticalSpacing="xs" data-testid="details-diff" miw={320}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Field</Table.Th>
            <Table.Th scope="col">{beforeLabel}</Table.Th>
            <Table.Th scope="col">{afterLabel}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {changed.map((f) => (
            <Table.Tr key={f}>
              <Table.Th scope="row">{detailLabel(f)}</Table.Th>
              <Table.Td>
                <Text size="sm" td="line-through" c="red">
                  {showValue(before[f])}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" c="green">
                  {showValue(after[f])}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollRegion>
  );
}
