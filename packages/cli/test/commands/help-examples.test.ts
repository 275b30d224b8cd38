/**
 * Every example that a `--help` shows runs as typed in bash: each command's
 * examples, in the order `lance-nd --help` lists the commands, in one
 * sandbox folder where `lance-nd` is the built command line. The netCDF
 * files the import examples name (sst-2000.nc, waves-*.nc, sst.zarr) are made first
 * by exporting the demo dataset. It runs some 25 command lines one after
 * the other.
 */
import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { CLI, cli, ensureBuilt, tempDir } from "./harness.js";

/** The `lance-nd ...` lines of the Example(s) section of a help text. */
function examplesOf(help: string): string[] {
  const at = help.search(/^Examples?:$/m);
  if (at < 0) return [];
  return help
    .slice(at)
    .split("\n")
    .filter((line) => line.startsWith("  lance-nd "))
    .map((line) => line.trim());
}

describe("--help examples", () => {
  let sandbox: string;
  let commands: string[];
  beforeAll(() => {
    ensureBuilt();
    sandbox = tempDir();
    const bin = join(sandbox, ".bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "lance-nd"), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
    chmodSync(join(bin, "lance-nd"), 0o755);
    const prep = join(sandbox, ".prep");
    mkdirSync(prep);
    expect(cli(["demo"], prep).code).toBe(0);
    expect(cli(["export", "lance-nd-demo/ocean.lance", join(sandbox, "sst-2000.nc")], prep).code).toBe(0);
    expect(
      cli(["export", "lance-nd-demo/ocean.lance", join(sandbox, "waves-1.nc"), "--isel", "time=0:4"], prep).code,
    ).toBe(0);
    expect(cli(["export", "lance-nd-demo/ocean.lance", join(sandbox, "sst.zarr"), "--format", "zarr"], prep).code).toBe(
      0,
    );
    const top = cli(["--help"]).stdout;
    commands = [...top.slice(top.indexOf("Commands:")).matchAll(/^ {2}([a-z]+) /gm)]
      .map((m) => m[1]!)
      .filter((c) => c !== "help");
  });

  it("every command shows at least one example, and each runs as typed in bash with exit 0", async () => {
    expect(commands.length).toBeGreaterThanOrEqual(14);
    const ran: string[] = [];
    for (const command of commands) {
      const examples = examplesOf(cli([command, "--help"]).stdout);
      expect(examples.length, `${command} --help shows no example`).toBeGreaterThan(0);
      for (const example of examples) {
        expect(await runExample(example)).toEqual({
          example,
          code: 0,
          stderr: expect.not.stringMatching(/command not found|unexpected EOF/),
        });
        ran.push(example);
      }
    }
    expect(ran.length).toBeGreaterThanOrEqual(20);
  });

  it("the README's region examples run as typed (after the demo example made lance-nd-demo/)", async () => {
    const readme = readFileSync(join(import.meta.dirname, "..", "..", "README.md"), "utf8");
    const block = /### Regions: --isel and --sel\n\n```sh\n([\s\S]*?)```/.exec(readme)![1]!;
    const lines = block.trim().split("\n");
    expect(lines).toHaveLength(3);
    for (const example of lines) expect(await runExample(example)).toEqual({ example, code: 0, stderr: "" });
  });

  /**
   * Runs one example line with bash in the sandbox: its exit code and stderr
   * (stdout is dropped). `lance-nd view` and `lance-nd serve` serve until
   * stopped: each gets the SIGTERM that stops it once it has printed its
   * address (it is serving then), which it answers with exit 0.
   */
  async function runExample(example: string): Promise<{ example: string; code: number | null; stderr: string }> {
    const child = spawn("bash", ["-c", example], {
      cwd: sandbox,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, PATH: `${join(sandbox, ".bin")}:${process.env.PATH ?? ""}` },
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (text: string) => {
      stderr += text;
    });
    if (/^lance-nd (view|serve) /.test(example)) child.stdout.once("data", () => child.kill("SIGTERM"));
    else child.stdout.resume();
    const code = await new Promise<number | null>((resolve) => child.on("close", (status) => resolve(status)));
    return { example, code, stderr };
  }
});
