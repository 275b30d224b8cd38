// Listing tags while other processes delete them (packages/lance-nd/README.md,
// "Guarantees"): Lance lists the tag files, then reads each, so a tag deleted
// in between failed the whole listing ("Not found: .../_refs/tags/....json"),
// and a waiting `import --mode replace`, which lists the tags while it waits
// for the writer lock, failed instead of waiting.
// 1. 1,500 listings through the library while two processes create and
//    delete tags: every listing answers.
// 2. Rounds of three `import --mode replace` of one id at once (two of them
//    wait for the lock) while two processes churn tags: every import ends 0,
//    the id holds one complete copy, no mark or lock is left.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { open } from "lance-nd";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killChildren, startChild, type Child } from "./helpers/children.js";
import { cli, requireBuiltCli } from "./helpers/cli.js";
import { count } from "./helpers/counters.js";
import { writeStepsFile } from "./helpers/import-files.js";
import { importTags, killCliProcesses, startCli, tableContent } from "./helpers/import-runs.js";

const LISTINGS = 1500;
const ROUNDS = Number(process.env.RELIABILITY_TAG_RACES ?? "2");
const STEPS = 20;
const COLUMNS = 4096;
const SEEDS = [1, 2, 3, 4];
const dir = mkdtempSync(join(tmpdir(), "lance-nd-tag-listing-"));
const file = (seed: number) => join(dir, `steps-${seed}.nc`);
const importArgs = (seed: number, uri: string, mode: string) =>
  ["import", file(seed), uri, "--id", "sst", "--mode", mode, "--chunk", "time=1", "--add-size", "0.1"] as const;

beforeAll(() => {
  requireBuiltCli();
  for (const seed of SEEDS) writeStepsFile(file(seed), seed, STEPS, COLUMNS);
});
afterAll(() => {
  killChildren();
  killCliProcesses();
  rmSync(dir, { recursive: true, force: true });
});

/** Starts two tag-churning children on `uri` and waits until both churn. */
async function churn(uri: string): Promise<Child[]> {
  const children = [startChild("tag-churn", { uri }), startChild("tag-churn", { uri })];
  await Promise.all(children.map((c) => c.ready));
  return children;
}

/** Stops the churning children (SIGTERM, they finish their pair) and checks they ended well. */
async function stopChurn(children: Child[]): Promise<void> {
  for (const child of children) child.process.kill("SIGTERM");
  for (const end of await Promise.all(children.map((c) => c.exited))) expect(end.code, end.stderr).toBe(0);
}

describe("tags listed while other processes delete tags", () => {
  it(`${LISTINGS} listings while two processes create and delete tags: every listing answers`, async () => {
    const uri = join(dir, "listing.lance");
    expect(cli(importArgs(1, uri, "create")).code).toBe(0);
    const table = await open(uri);
    const children = await churn(uri);
    let sawChurn = 0;
    try {
      for (let i = 0; i < LISTINGS; i++) {
        if ((await table.tags()).some((t) => t.name.startsWith("churn-"))) sawChurn++;
      }
    } finally {
      await stopChurn(children);
    }
    // The listings ran while tags came and went.
    expect(sawChurn).toBeGreaterThan(0);
    count("tagListings", LISTINGS);
  });

  it(`${ROUNDS} rounds of three --mode replace of one id at once while tags churn: each waits and ends 0`, async () => {
    const uri = join(dir, "replace.lance");
    expect(cli(importArgs(1, uri, "create")).code).toBe(0);
    for (let round = 0; round < ROUNDS; round++) {
      const children = await churn(uri);
      const runs = [2, 3, 4].map((seed) => startCli(importArgs(seed, uri, "replace")));
      const ends = await Promise.all(runs.map((r) => r.exited));
      await stopChurn(children);
      expect(
        ends.map((e) => e.code),
        ends.map((e) => e.stderr).join(""),
      ).toEqual([0, 0, 0]);
      const content = await tableContent(uri, STEPS, SEEDS);
      expect([...content.keys()], `round ${round}`).toEqual(["sst"]);
      expect([2, 3, 4], `round ${round}`).toContain(content.get("sst"));
      expect(importTags(uri), `round ${round}`).toEqual([]);
      count("tagChurnReplaces");
    }
  });
});
