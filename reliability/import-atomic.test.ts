// Imports that never half-happen (packages/lance-nd/README.md, "Guarantees";
// CLI README, "Interrupting an import"), through the built command as a user
// starts it (the MALLOC_ARENA_MAX wrapper and its child). Files of 75 steps
// imported with --chunk time=1 and a small --add-size, so each import is
// several Lance adds (the path of a file over 64 MiB at the default size).
// 1. Two `import --mode replace` of one id race, 10 rounds: exactly one
//    complete copy each time.
// 2. Imports (create, append, replace, overwrite) stopped at seeded random
//    moments after their first adds by SIGINT, SIGTERM or SIGKILL of the
//    PID the caller holds, 20 rounds; then `check --repair` and the same
//    command again: every dataset present exactly once and complete, no
//    import mark or lock left.
// 3. SIGKILL of the PID the caller holds in the middle of an import: its
//    child dies with it, and no version appears afterwards.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { seededRandom } from "@lance-nd/test-helpers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, requireBuiltCli } from "./helpers/cli.js";
import { count } from "./helpers/counters.js";
import { writeStepsFile } from "./helpers/import-files.js";
import {
  alive,
  childPids,
  importTags,
  killCliProcesses,
  manifestCount,
  startCli,
  tableContent,
  waitUntil,
} from "./helpers/import-runs.js";

const ROUNDS = Number(process.env.RELIABILITY_IMPORT_INTERRUPTS ?? "20");
const RACES = Number(process.env.RELIABILITY_IMPORT_RACES ?? "10");
const STEPS = 75;
const SEEDS = [1, 2, 3, 4];
const COLUMNS = 4096;
/** MiB of one add: a file of 75 steps of 16 KiB is about ten adds. */
const ADD_SIZE = "0.1";
const dir = mkdtempSync(join(tmpdir(), "lance-nd-import-atomic-"));
const file = (seed: number) => join(dir, `steps-${seed}.nc`);
const importArgs = (seed: number, uri: string, id: string, mode: string) => [
  "import",
  file(seed),
  uri,
  "--id",
  id,
  "--mode",
  mode,
  "--chunk",
  "time=1",
  "--add-size",
  ADD_SIZE,
];

beforeAll(() => {
  requireBuiltCli();
  for (let seed = 1; seed <= 4; seed++) writeStepsFile(file(seed), seed, STEPS, COLUMNS);
});
afterAll(() => {
  killCliProcesses();
  rmSync(dir, { recursive: true, force: true });
});

describe("import: one writer per id", () => {
  it(`${RACES} rounds of two --mode replace of one 75-row id at once: exactly one complete copy each time`, async () => {
    const uri = join(dir, "race.lance");
    expect(cli(importArgs(1, uri, "sst", "create")).code).toBe(0);
    for (let round = 0; round < RACES; round++) {
      const [a, b] = [startCli(importArgs(2, uri, "sst", "replace")), startCli(importArgs(3, uri, "sst", "replace"))];
      const [endA, endB] = await Promise.all([a.exited, b.exited]);
      expect([endA.code, endB.code], `${endA.stderr}${endB.stderr}`).toEqual([0, 0]);
      const content = await tableContent(uri, STEPS, SEEDS);
      expect([...content.keys()], `round ${round}`).toEqual(["sst"]);
      expect([2, 3], `round ${round}`).toContain(content.get("sst"));
      expect(importTags(uri)).toEqual([]);
      count("importRaces");
    }
  });
});

describe("import: interrupted at random moments", () => {
  it(`${ROUNDS} imports (more until ${ROUNDS / 2} stopped midway) stopped by SIGINT, SIGTERM or SIGKILL, then check --repair and the same command: one complete copy`, async () => {
    const random = seededRandom(27);
    const table = join(dir, "interrupts.lance");
    const overwritten = join(dir, "overwritten.lance");
    expect(cli(importArgs(1, table, "base", "create")).code).toBe(0);
    expect(cli(importArgs(1, overwritten, "first", "create")).code).toBe(0);
    // What each table holds (each id and its file's seed), as the rounds leave it.
    const held = new Map<string, Map<string, number>>([
      [table, new Map([["base", 1]])],
      [overwritten, new Map([["first", 1]])],
    ]);
    const signals = ["SIGINT", "SIGTERM", "SIGKILL"] as const;
    const modes = ["create", "append", "replace", "overwrite"] as const;
    let stoppedMidway = 0;
    // On a loaded machine more imports end before their signal comes: rounds go on (up to three times
    // as many) until half the planned number stopped in the middle of an import.
    const enough = () => stoppedMidway >= ROUNDS / 2;
    for (let round = 0; round < ROUNDS || (!enough() && round < 3 * ROUNDS); round++) {
      const signal = signals[round % signals.length]!;
      const mode = modes[Math.floor(random() * modes.length)]!;
      const seed = 2 + (round % 3);
      const id = mode === "append" ? `append-${round}` : mode === "replace" ? "base" : mode;
      const uri = mode === "create" ? join(dir, `created-${round}.lance`) : mode === "overwrite" ? overwritten : table;
      const args = importArgs(seed, uri, id, mode);
      const before = held.get(uri) ?? new Map<string, number>();
      const complete =
        mode === "create" || mode === "overwrite" ? new Map([[id, seed]]) : new Map(before).set(id, seed);
      const manifests = manifestCount(uri);
      const run = startCli(args);
      // Stop it after 1 to 4 of its adds landed (a create's first add makes the table), plus up to 30 ms.
      const adds = 1 + Math.floor(random() * 4);
      // A create marks itself right after its first commit: a SIGKILL within those milliseconds leaves an
      // unmarked table (lance-nd README, "Guarantees"), so a create is SIGKILLed once its mark is there.
      const marked = () =>
        mode !== "create" ||
        signal !== "SIGKILL" ||
        importTags(uri).some((t) => /^lance-nd-import-[\da-f-]{36}\.json$/.test(t));
      const reached = await waitUntil(() => manifestCount(uri) >= manifests + adds && marked(), run.exited);
      await sleep(Math.floor(random() * 30));
      const importer = childPids(run.process.pid!);
      run.process.kill(signal);
      const end = await run.exited;
      // The wrapper is gone; its child (the import) ends with it, or rolls back first.
      for (const pid of importer) await waitUntil(() => !alive(pid), sleep(60_000));
      const context = `round ${round}: ${mode} stopped by ${signal} after ${adds} adds (${reached ? "reached" : "ended first"}): ${end.stderr}`;
      // SIGINT / SIGTERM: rolled back with one line and 130 / 143, or the import had ended (then 0,
      // 130 / 143 saying so, or the signal's default end after the command returned).
      const code = signal === "SIGINT" ? 130 : 143;
      const rolledBack = /interrupted by SIG\w+: stopped, /.test(end.stderr);
      // SIGKILL: killed, or the import had ended (0) before the signal came.
      if (signal === "SIGKILL") expect(end.signal === "SIGKILL" || end.code === 0, context).toBe(true);
      else if (rolledBack) expect(end.code, context).toBe(code);
      else expect(end.code === 0 || end.code === code || end.signal === signal, context).toBe(true);

      if (manifestCount(uri) > 0) {
        const repair = cli(["check", uri, "--repair"]);
        expect(repair.code, `${context}\n${repair.stdout}${repair.stderr}`).toBe(0);
        if (/did not end/.test(repair.stdout)) count("importLeftovers");
        if (manifestCount(uri) > 0) expect(importTags(uri), context).toEqual([]);
      }
      // Stopped and repaired, the import happened completely or not at all.
      const stopped = await tableContent(uri, STEPS, SEEDS);
      const whole = sameContent(stopped, complete);
      if (!whole || rolledBack) expect(Object.fromEntries(stopped), context).toEqual(Object.fromEntries(before));
      if ((signal !== "SIGKILL" && !rolledBack) || end.code === 0) expect(whole, context).toBe(true);
      if (!whole) count("importStops");
      stoppedMidway += whole ? 0 : 1;

      const again = cli(args);
      const refused = whole && (mode === "create" || mode === "append");
      expect(again.code, `${context}\nagain: ${again.stderr}`).toBe(refused ? 1 : 0);
      expect(Object.fromEntries(await tableContent(uri, STEPS, SEEDS)), context).toEqual(Object.fromEntries(complete));
      held.set(uri, complete);
    }
    // The stops are timed by the adds that landed: most come in the middle of an import.
    expect(enough(), `${stoppedMidway} imports stopped midway`).toBe(true);
  });
});

function sameContent(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): boolean {
  return a.size === b.size && [...a].every(([id, seed]) => b.get(id) === seed);
}

describe("import: SIGKILL of the PID the caller holds", () => {
  it("the import's child dies with it and no version appears afterwards", async () => {
    const uri = join(dir, "held.lance");
    expect(cli(importArgs(1, uri, "held", "create")).code).toBe(0);
    // The table's content before the import that is killed: the seed of the last complete import.
    let held = 1;
    for (let attempt = 1; ; attempt++) {
      const seed = held === 1 ? 2 : 1;
      const run = startCli(importArgs(seed, uri, "held", "replace"));
      const before = manifestCount(uri);
      expect(await waitUntil(() => manifestCount(uri) >= before + 2, run.exited)).toBe(true);
      const children = childPids(run.process.pid!);
      expect(children.length).toBe(1);
      const child = children[0]!;
      // Stopped, the child commits nothing more: the table as it is now is what the kill leaves.
      process.kill(child, "SIGSTOP");
      if (importTags(uri).length === 0) {
        // The import ended before it was stopped: it replaced the id; try again.
        process.kill(child, "SIGCONT");
        expect((await run.exited).code).toBe(0);
        held = seed;
        expect(attempt, "every import ended before it could be stopped").toBeLessThan(10);
        continue;
      }
      run.process.kill("SIGKILL");
      await run.exited;
      const atKill = manifestCount(uri);
      // The kernel kills the child with its parent (setpriv --pdeathsig), stopped or not.
      process.kill(child, "SIGCONT");
      expect(await waitUntil(() => !alive(child), new Promise(() => {}))).toBe(true);
      expect(manifestCount(uri)).toBe(atKill);
      const report = cli(["check", uri]);
      expect(report.stdout).toMatch(/did not end: \d+ rows of id "held"/);
      expect(cli(["check", uri, "--repair"]).code).toBe(0);
      expect(Object.fromEntries(await tableContent(uri, STEPS, SEEDS))).toEqual({ held });
      return;
    }
  });
});
