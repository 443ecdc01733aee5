"use client";
import { SectionCard } from "@/components/console/SectionCard";
import type { TemplateDetails } from "@/lib/contracts/templates/content-fields";
import { formatJson } from "./json-text";
import { ManifestDiff } from "./ManifestDiff";
import { MetadataDiff } from "./MetadataDiff";

/** Two contents of a template compared: the details that differ, then the manifests line by line. */
export function ContentDiff({
  before,
  after,
  beforeLabel,
  afterLabel,
  manifestLabels = [beforeLabel, afterLabel],
  titles = ["Details", "Manifest"],
}: {
  before: TemplateDetails & { manifest: unknown };
  after: TemplateDetails & { manifest: unknown };
  beforeLabel: string;
  afterLabel: string;
  /** The manifest diff's labels, when they say more than the details' (a revision, say). */
  manifestLabels?: [string, string];
  /** The two sections' headings, distinct when a page shows more than one comparison. */
  titles?: [string, string];
}) {
  return (
    <>
      <SectionCard title={titles[0]}>
        <MetadataDiff before={before} after={after} beforeLabel={beforeLabel} afterLabel={afterLabel} />
      </SectionCard>
      <SectionCard title={titles[1]}>
        <ManifestDiff
          before={formatJson(before.manifest)}
          after={formatJson(after.manifest)}
          beforeLabel={manifestLabels[0]}
          afterLabel={manifestLabels[1]}
        />
      </SectionCard>
    </>
  );
}
