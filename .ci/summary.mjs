// The last lines of a CI run: every failed (or flaky) test by name with its first error line,
// then one line summing every runner's JSON report. Exits 1 when anything failed.
import { readFileSync } from "node:fs";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";

const read = (file) => {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
};
/** The first line of an error message, without the terminal colours runners put in it. */
const firstLine = (message) => stripVTControlCharacters(message ?? "").split("\n")[0];

/**
 * A Playwright error in one line: its first line, the locator it waited for and where in the
 * spec it failed (the top of the stack is a shared helper often, so the spec line too).
 */
function playwrightError(error) {
  if (!error) return "";
  const message = stripVTControlCharacters(error.message ?? "");
  const locator = message.split("\n").find((line) => line.startsWith("Locator:"));
  const at = (location) => (location ? `${path.relative(".", location.file)}:${location.line}` : null);
  const specLines = stripVTControlCharacters(error.stack ?? "")
    .split("\n")
    .map((line) => line.match(/\((.*\.spec\.ts):(\d+):\d+\)|at (\S*\.spec\.ts):(\d+):\d+/))
    .filter(Boolean)
    .map((m) => `${path.relative(".", m[1] ?? m[3])}:${m[2] ?? m[4]}`);
  return [
    firstLine(message),
    locator,
    [at(error.location), ...specLines]
      .filter(Boolean)
      .filter((v, i, all) => all.indexOf(v) === i)
      .join(" via "),
  ]
    .filter(Boolean)
    .join(" | ");
}

let passed = 0;
let failed = 0;
const names = [];

const vitest = read(".ci-out/vitest.json");
if (vitest) {
  passed += vitest.numPassedTests;
  // A file that failed outside its tests (a hook, an import) fails no test but the run: count it.
  failed += vitest.numFailedTests + (vitest.numFailedTests === 0 && !vitest.success ? 1 : 0);
  for (const file of vitest.testResults ?? []) {
    const name = path.relative(".", file.name);
    const failedTests = (file.assertionResults ?? []).filter((t) => t.status === "failed");
    if (file.status === "failed" && failedTests.length === 0)
      names.push(`vitest ${name}: ${firstLine(file.message) || "failed outside its tests"}`);
    for (const t of failedTests) names.push(`vitest ${name} > ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
  }
}

const playwright = read(".ci-out/playwright.json");
if (playwright) {
  passed += playwright.stats.expected + playwright.stats.flaky;
  // Errors outside the tests (global set-up or teardown, the web server) fail the run: count each.
  failed += playwright.stats.unexpected + (playwright.errors?.length ?? 0);
  const walk = (suite, trail) => {
    for (const inner of suite.suites ?? []) walk(inner, [...trail, inner.title]);
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status !== "unexpected" && t.status !== "flaky") continue;
        // Every failing try, numbered: a retry often fails on what the first try left behind,
        // so the first one says what went wrong.
        const tries = (t.results ?? []).map((result, i) => [i + 1, result.error]).filter(([, error]) => error);
        for (const [n, error] of tries)
          names.push(`playwright ${t.status} ${[...trail, spec.title].join(" > ")} (try ${n}): ${playwrightError(error)}`);
      }
    }
  };
  for (const suite of playwright.suites ?? []) walk(suite, [suite.title]);
  for (const error of playwright.errors ?? []) names.push(`playwright error outside the tests: ${playwrightError(error)}`);
}

if (!vitest || !playwright) failed += 1; // a runner that wrote no report counts as a failure

// Where the time went: each phase of the run, the unit tests' time by database (summed over
// their files, which run side by side), and the ten slowest tests of either runner.
const seconds = (s) => `${s.toFixed(1)} s`;
const minutes = (s) => (s >= 60 ? `${Math.floor(s / 60)} min ${Math.round(s % 60)} s` : seconds(s));
let phases = [];
try {
  phases = readFileSync(".ci-out/phases.tsv", "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => line.split("\t"))
    .map(([name, ms, status]) => ({ name, s: Number(ms) / 1000, status }));
} catch {}
const timing = read(".ci-out/vitest-timing.json");
const slowest = [];
if (timing) {
  for (const t of timing.tests) slowest.push({ name: `vitest [${t.project}] ${t.name}`, s: t.seconds });
  const byProject = new Map();
  for (const f of timing.files) byProject.set(f.project, [...(byProject.get(f.project) ?? []), f]);
  for (const [project, files] of byProject)
    phases.push({ name: `  unit on ${project}: ${files.length} files, summed`, s: files.reduce((sum, f) => sum + f.seconds, 0) });
}
const collect = (suite, trail) => {
  for (const inner of suite.suites ?? []) collect(inner, [...trail, inner.title]);
  for (const spec of suite.specs ?? [])
    for (const t of spec.tests ?? [])
      for (const [i, result] of (t.results ?? []).entries())
        slowest.push({ name: `playwright ${[...trail, spec.title].join(" > ")}${i ? ` (try ${i + 1})` : ""}`, s: result.duration / 1000 });
};
for (const suite of playwright?.suites ?? []) collect(suite, [suite.title]);
if (phases.length) {
  console.log("Time by phase:");
  for (const p of phases)
    console.log(`  ${p.name.padEnd(48)} ${minutes(p.s).padStart(12)}${p.status && p.status !== "0" ? ` (exit ${p.status})` : ""}`);
  // Some phases run side by side (lint and types beside the build): the run's own clock.
  try {
    const wall = Number(BigInt(Date.now()) * 1_000_000n - BigInt(readFileSync(".ci-out/started", "utf8").trim())) / 1e9;
    console.log(`  ${"the whole run, start to end".padEnd(48)} ${minutes(wall).padStart(12)}`);
  } catch {}
}
if (slowest.length) {
  console.log("Ten slowest tests:");
  for (const t of slowest.sort((a, b) => b.s - a.s).slice(0, 10)) console.log(`  ${seconds(t.s).padStart(8)}  ${t.name.slice(0, 200)}`);
}

for (const name of names) console.log(name.slice(0, 600));
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
