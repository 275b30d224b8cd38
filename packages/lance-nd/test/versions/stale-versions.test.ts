/**
 * Reads of a version that is gone say so, against real tables: a dataset
 * pinned to a version whose data files cleanup removed is `InvalidTable`
 * naming the file and cleanup (not a schema mismatch), and a checkout of a
 * version a branch does not hold names the version and the branch, not
 * Lance's internal manifest path.
 */
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { failure as anyFailure } from "@lance-nd/test-helpers";
import { dataset } from "../../src/dataset/dataset.js";
import { isLanceNdError } from "../../src/errors.js";
import { write } from "../../src/write/write.js";
import { tempDir } from "../helpers/make-table.js";

const dir = tempDir("stale-versions");

const row = (id: string) =>
  new NdRecordBatch({ x: NdArray.from(new Float64Array([1, 2, 3]), { dims: { n: 3 } }) }, { id });

async function failure(run: () => Promise<unknown>): Promise<Error & { code?: string }> {
  const err = await anyFailure(run);
  expect(isLanceNdError(err), String(err)).toBe(true);
  return err as Error & { code?: string };
}

describe("a version that is gone", () => {
  it("a dataset pinned before delete, compact and cleanup: InvalidTable naming the data file and cleanup", async () => {
    const table = await write(path.join(dir, "pinned.lance"), [row("a"), row("b")]);
    const pinned = await dataset(table, { where: "__global_attrs__.id = 'a'" });
    await table.delete("__global_attrs__.id = 'a'");
    await table.compact();
    await table.cleanupOldVersions({ olderThan: 0 });
    const err = await failure(() => pinned.read());
    expect(err.code).toBe("InvalidTable");
    expect(err.message).toMatch(/the data file \S+\/data\/\S+\.lance of the version read is gone \(cleanup removes/);
    expect(err.message.split("\n")).toHaveLength(1);
  });

  it("a checkout of a version from before a branch's fork, or never written: the version and the branch, no manifest path", async () => {
    const table = await write(path.join(dir, "forked.lance"), [row("a")]);
    await write(path.join(dir, "forked.lance"), [row("b")], { mode: "append" });
    const trial = await table.createBranch("trial");
    for (const [on, version, text] of [
      [
        trial,
        1,
        'version 1 does not exist on branch "trial" (a branch holds the versions from the one it was forked from on',
      ],
      [table, 99, "version 99 does not exist (never written, or removed by cleanup)"],
    ] as const) {
      const err = await failure(() => on.checkout(version));
      expect(err.code).toBe("InvalidInput");
      expect(err.message).toContain(text);
      expect(err.message).not.toMatch(/manifest|_versions/);
    }
  });
});
