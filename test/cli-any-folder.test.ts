import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";

// The README's way to run `lance-nd` from any folder: `pnpm -C <repo>
// lance-nd ...` (or the alias the README shows) resolves relative paths
// from the folder it was called in, not from the repository.
const root = join(import.meta.dirname, "..");
const folder = mkdtempSync(join(tmpdir(), "lance-nd-any-folder-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function lanceNd(...args: string[]): string {
  return execFileSync("npx", ["--yes", "pnpm@12.21.0", "--silent", "-C", root, "lance-nd", ...args], {
    cwd: folder,
    encoding: "utf8",
  });
}

it("pnpm -C <repo> lance-nd writes and reads tables at paths relative to the caller's folder", () => {
  const demo = JSON.parse(lanceNd("demo", "--dir", "out", "--json")) as { table?: string };
  expect(existsSync(join(folder, "out", "ocean.lance"))).toBe(true);
  expect(existsSync(join(root, "out"))).toBe(false);
  expect(demo.table).toBeDefined();
  const info = JSON.parse(lanceNd("info", join("out", "ocean.lance"), "--json")) as { rows?: number };
  expect(info.rows).toBe(9);
});
