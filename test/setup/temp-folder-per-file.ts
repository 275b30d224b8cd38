/**
 * vitest's setup for each test file: the file's temporary files go to a
 * folder of their own inside the run's (test/setup/private-temp-folder.ts),
 * through TMPDIR, which the file's code and the processes it starts read;
 * after the file's tests the folder is removed with whatever is in it, so a
 * test file never leaves anything behind, even when it fails midway.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { FILE_FOLDER_PREFIX } from "./private-temp-folder.js";

const outer = process.env.TMPDIR;
const folder = mkdtempSync(join(tmpdir(), FILE_FOLDER_PREFIX));
process.env.TMPDIR = folder;

afterAll(() => {
  if (outer === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = outer;
  rmSync(folder, { recursive: true, force: true });
});
