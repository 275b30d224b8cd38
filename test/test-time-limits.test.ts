import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { expect, it } from "vitest";

// A test passes or fails on what it checks, never on how busy the machine
// is: no test or hook sets its own time limit (vitest.config.ts sets none
// either), no wait for a child, a poll or a page has one, and no test
// measures the wall clock against a bound.
const root = join(import.meta.dirname, "..");
const folders = ["packages", "test", "reliability"];

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === "node_modules" || entry.name === "dist") return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

/** Milliseconds as tests write them: 1000 or more, e.g. `60_000`, `5000` (a smaller number is a reduce's start). */
const MS = String.raw`(?:[1-9]\d{0,2}(?:_\d{3})+|[1-9]\d{3,})`;
const LIMITS: [string, RegExp][] = [
  ["a time limit after a test or hook's function", new RegExp(String.raw`^\s*\}\)?, ${MS}\);$`, "m")],
  ["a time limit on a hook", new RegExp(String.raw`^\s*(beforeAll|afterAll|beforeEach|afterEach)\(.*, ${MS}\);$`, "m")],
  ["a time limit in a test's options", /\b(it|test|describe)(\.\w+(\([^)]*\))?)?\([^,]+, \{[^}]*\btimeout:/],
  ["a wall-clock bound", /expect\(\s*(Date\.now\(\)|performance\.now\(\))\s*-[^)]*\)\.toBeLessThan/],
  // A child's, a poll's or a page's wait with a `timeout` of a second or more.
  ["a time limit on a wait", new RegExp(String.raw`\btimeout: ${MS}\b`)],
  // vi.waitFor gives up after 1 s unless told otherwise; expect.poll's limit is lifted in vitest.config.ts.
  ["vi.waitFor (use expect.poll)", /\bvi\.waitFor\(/],
  // Playwright gives each page wait 30 s unless the browser's context says otherwise.
  ["a browser without context.setDefaultTimeout(0)", /launchPersistentContext\((?![\s\S]*setDefaultTimeout\(0\))/],
];

it("no test file sets a time limit on a test, hook or wait, or bounds the wall clock", () => {
  const found: string[] = [];
  for (const file of folders.flatMap((folder) => testFiles(join(root, folder)))) {
    const text = readFileSync(file, "utf8");
    for (const [what, pattern] of LIMITS) if (pattern.test(text)) found.push(`${relative(root, file)}: ${what}`);
  }
  expect(found).toEqual([]);
});
