// cleanupOldVersions never removes a version a tag or a branch needs
// (README.md, "Version control"): a loop of changes and cleanups on main and
// on branches, after each of which every tag and branch still reads as it did.
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { open, type NdTable } from "../../src/table.js";
import { append, write } from "../../src/write/write.js";
import { tempDir } from "../helpers/make-table.js";
import { readIds, sstRows } from "../helpers/write-rows.js";

const dir = tempDir("version-cleanup");

/** What each tag and branch reads. */
async function refsRead(uri: string, tagNames: string[], branchNames: string[]): Promise<Record<string, string[]>> {
  const main = await open(uri);
  const out: Record<string, string[]> = {};
  for (const name of tagNames) out[`tag ${name}`] = await readIds(await main.checkout(name));
  for (const name of branchNames) out[`branch ${name}`] = await readIds(await open(uri, { branch: name }));
  return out;
}

describe("cleanup and version control", () => {
  it("cleanup of main and of branches (everything older than now, unverified files too) keeps every tagged version and every branch readable", async () => {
    const uri = path.join(dir, "t.lance");
    let main: NdTable = await write(uri, sstRows(3));
    const fork = await main.createBranch("fork"); // forked from version 1, which no tag names
    await append(fork, sstRows(1, 10));
    main = await append(main, sstRows(2, 3));
    await main.delete("__global_attrs__.id = 'r4'");
    const child = await fork.createBranch("child");
    await append(child, sstRows(1, 20));
    await main.tag("pub");
    await append(main, sstRows(1, 4));
    await main.tag("latest");
    const tagNames = ["pub", "latest"];
    const branchNames = ["fork", "child"];
    const expected = await refsRead(uri, tagNames, branchNames);
    expect(expected).toEqual({
      "tag pub": ["r0", "r1", "r2", "r3"],
      "tag latest": ["r0", "r1", "r2", "r3", "r4"],
      "branch fork": ["r0", "r1", "r10", "r2"],
      "branch child": ["r0", "r1", "r10", "r2", "r20"],
    });
    let removed = 0;
    // Each round changes main and the fork (new files, deleted rows, compaction), then cleans both up.
    for (let round = 0; round < 3; round++) {
      await append(main, sstRows(1, 100 + round));
      await main.delete(`__global_attrs__.id = 'r${100 + round}'`);
      await main.compact();
      await append(fork, sstRows(1, 200 + round));
      await fork.delete(`__global_attrs__.id = 'r${200 + round}'`);
      for (const t of [main, fork, child])
        removed += (await t.cleanupOldVersions({ olderThan: 0, deleteUnverified: true })).versionsRemoved;
      expect(await refsRead(uri, tagNames, branchNames)).toEqual(expected);
      expect(await readIds(main)).toEqual(["r0", "r1", "r2", "r3", "r4"]);
    }
    // Cleanup did remove versions (main's 2 and the fork's own), but kept the ones the branches forked from.
    expect(removed).toBeGreaterThan(0);
    const mainVersions = (await main.versions()).map((v) => v.version);
    expect(mainVersions).toContain(1);
    expect(mainVersions).not.toContain(2);
    expect(await readIds(await fork.checkout(2))).toEqual(["r0", "r1", "r10", "r2"]);
  });
});
