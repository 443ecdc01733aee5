import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Reporter, TestModule } from "vitest/node";

// Where a CI run's unit-test time went, for .ci/summary.mjs: each file's time by project (which
// database), and each test's, so the closing summary can name the slowest and the next slowdown
// is seen the day it arrives. Vitest's JSON report has neither the project nor a file's hooks.

/** A file's whole time in its worker: set-up, import and every test and hook. */
const fileSeconds = (module: TestModule) => {
  const d = module.diagnostic();
  return (d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration) / 1000;
};

export default class TimingReporter implements Reporter {
  private readonly outputFile: string;

  constructor(options: { outputFile: string }) {
    this.outputFile = options.outputFile;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    const files = modules.map((module) => ({
      project: module.project.name,
      file: module.relativeModuleId,
      seconds: fileSeconds(module),
    }));
    const tests = modules.flatMap((module) =>
      [...module.children.allTests()].map((test) => ({
        project: module.project.name,
        name: `${module.relativeModuleId} > ${test.fullName}`,
        seconds: (test.diagnostic()?.duration ?? 0) / 1000,
      })),
    );
    mkdirSync(path.dirname(this.outputFile), { recursive: true });
    writeFileSync(this.outputFile, JSON.stringify({ files, tests }));
  }
}
