// cleanupOldVersions never removes a version a tag or a branch needs
// (README.md, "Version control"): a loop of changes and cleanups on main and
// on branches, after each of which every tag and branch still reads as it did.
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { checkout, cleanupOldVersions, compact, deleteRows, versions } from "../src/versions/maintenance.js";
import { open, type NdTable } from "../src/table.js";
import { branch, tag } from "../src/versions/version-control.js";
import { append, write } from "../src/write/write.js";
import { tempDir } from "./helpers/make-table.js";
import { readIds, sstRows } from "./helpers/write-rows.js";

const dir = tempDir("version-cleanup");

/** What each tag and branch reads. */
async function refsRead(uri: string, tagNames: string[], branchNames: string[]): Promise<Record<string, string[]>> {
  const main = await open(uri);
  const out: Record<string, string[]> = {};
  for (const name of tagNames) out[`tag ${name}`] = await readIds(await checkout(main, name));
  for (const name of branchNames) out[`branch ${name}`] = await readIds(await open(uri, { branch: name }));
  return out;
}

describe("cleanup and version control", () => {
  it("cleanup of main and of branches (everything older than now, unverified files too) keeps every tagged version and every branch readable", async () => {
    const uri = path.join(dir, "t.lance");
    let main: NdTable = await write(uri, sstRows(3));
    const fork = await branch(main, "fork"); // forked from version 1, which no tag names
    await append(fork, sstRows(1, 10));
    main = await append(main, sstRows(2, 3));
    await deleteRows(main, "__global_attrs__.id = 'r4'");
    const child = await branch(fork, "child");
    await append(child, sstRows(1, 20));
    await tag(main, "pub");
    await append(main, sstRows(1, 4));
    await tag(main, "latest");
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
      await deleteRows(main, `__global_attrs__.id = 'r${100 + round}'`);
      await compact(main);
      await append(fork, sstRows(1, 200 + round));
      await deleteRows(fork, `__global_attrs__.id = 'r${200 + round}'`);
      for (const t of [main, fork, child])
        removed += (await cleanupOldVersions(t, { olderThan: 0, deleteUnverified: true })).versionsRemoved;
      expect(await refsRead(uri, tagNames, branchNames)).toEqual(expected);
      expect(await readIds(main)).toEqual(["r0", "r1", "r2", "r3", "r4"]);
    }
    // Cleanup did remove versions (main's 2 and the fork's own), but kept the ones the branches forked from.
    expect(removed).toBeGreaterThan(0);
    const mainVersions = (await versions(main)).map((v) => v.version);
    expect(mainVersions).toContain(1);
    expect(mainVersions).not.toContain(2);
    expect(await readIds(await checkout(fork, 2))).toEqual(["r0", "r1", "r10", "r2"]);
  });
});
