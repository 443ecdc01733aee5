import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The files that take longest, by CI's timing report (.ci-out/vitest-timing.json): started first,
 * so that neither core ends the run alone on one of them. Vitest orders by the durations of the
 * last run when it has them, and a fresh clone has none: there it ran the 50 s outage test last,
 * alone on one core.
 */
const SLOW_FILES = ["database-outage", "cli", "upstream-hygiene", "races", "fuzz", "rate-limits"].map((name) => `/tests/${name}.test.ts`);

const rank = (spec: TestSpecification) => {
  const index = SLOW_FILES.findIndex((file) => spec.moduleId.endsWith(file));
  return index === -1 ? SLOW_FILES.length : index;
};

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // A stable sort: within each rank the base order (its results cache, else file size) stands.
    return sorted
      .map((spec, index) => ({ spec, index }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.index - b.index)
      .map(({ spec }) => spec);
  }
}
