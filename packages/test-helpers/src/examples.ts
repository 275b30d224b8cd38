/**
 * The quick-start example of a package, run as a test: what it prints, and
 * the README that shows it (each package's README "Quick start").
 */
import { readFileSync } from "node:fs";

/**
 * The lines `run` prints with `console.log` (each call's arguments, each
 * formatted by `format`, JSON by default, joined by a space); nothing is
 * printed meanwhile, and `console.log` is put back however `run` ends.
 */
export async function loggedLines(
  run: () => Promise<unknown>,
  format: (arg: unknown) => string = (arg) => JSON.stringify(arg),
): Promise<string[]> {
  const lines: string[] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => void lines.push(args.map(format).join(" "));
  try {
    await run();
  } finally {
    console.log = log;
  }
  return lines;
}

/**
 * The package's README and its `examples/quick-start.ts` (from the first
 * `from` on, trimmed; the whole file without it), read beside the test file
 * at `testUrl` (its `import.meta.url`, in the package's `test/` folder).
 */
export function quickStartAndReadme(testUrl: string, from?: string): { readme: string; example: string } {
  const read = (path: string) => readFileSync(new URL(path, testUrl), "utf8");
  const example = read("../examples/quick-start.ts");
  return {
    readme: read("../README.md"),
    example: (from === undefined ? example : example.slice(example.indexOf(from))).trim(),
  };
}
