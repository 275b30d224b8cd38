// The manifest files `check` reads (lance/version-files.ts; README, "check").
import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/make-table.js";
import { manifestFiles } from "../../src/lance/version-files.js";

const dir = tempDir("check");

describe("manifestFiles", () => {
  it("reads both of Lance's manifest names, newest first, and skips other files", () => {
    const folder = path.join(dir, "names.lance");
    mkdirSync(path.join(folder, "_versions"), { recursive: true });
    for (const name of [
      "18446744073709551613.manifest",
      "18446744073709551612.manifest",
      "7.manifest",
      "latest_version_hint.json",
      "1.txn",
    ]) {
      writeFileSync(path.join(folder, "_versions", name), "");
    }
    expect(manifestFiles(folder, folder).map((m) => m.version)).toEqual([7, 3, 2]);
  });
});
