/**
 * vitest's global setup for every run: the run's temporary files go to a
 * folder of its own (TMPDIR, which node's `os.tmpdir()`, Python's
 * `tempfile` and the Lance SDK read, and which the test workers and their
 * children inherit), so a run neither sees nor leaves anything in the
 * shared /tmp. At the end the folder is removed; if a test left something
 * in it besides the test files' own folders, the run fails naming what was
 * left, so a test that writes around its file's folder cannot go unnoticed
 * (root README, "Development"). The test files' folders are removed here
 * too: test/setup/temp-folder-per-file.ts removes each after its file's
 * tests, but vitest runs no `afterAll` in a file whose tests all skipped.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The start of the name of each test file's own folder (test/setup/temp-folder-per-file.ts). */
export const FILE_FOLDER_PREFIX = "file-";

/** Points TMPDIR at a fresh folder; returns the teardown that checks and removes it. */
export default function privateTempFolder(): () => void {
  const outer = process.env.TMPDIR;
  const folder = mkdtempSync(join(tmpdir(), "lance-nd-test-run-"));
  process.env.TMPDIR = folder;
  return () => {
    if (outer === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = outer;
    const left = readdirSync(folder)
      .filter((name) => !name.startsWith(FILE_FOLDER_PREFIX))
      .sort();
    rmSync(folder, { recursive: true, force: true });
    if (left.length === 0) return;
    // A throw here is printed but does not change vitest's exit code.
    console.error(`tests left ${left.length} entries in the temporary folder (removed now): ${left.join(", ")}`);
    process.exitCode = 1;
  };
}
