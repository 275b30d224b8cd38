/**
 * The help and the README say the same: the command table of the CLI
 * README ("Commands") names every command with the arguments its `--help`
 * usage line shows, and the top-level `--help` lists each command by that
 * same usage line.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cli, ensureBuilt } from "./harness.js";

beforeAll(ensureBuilt);

const README = readFileSync(join(import.meta.dirname, "..", "..", "README.md"), "utf8");

/** The README table's commands: name -> the arguments of its first column, options (`--where <sql>`) left out. */
function readmeUsages(): Map<string, string> {
  const section = README.slice(
    README.indexOf("\n## Commands\n"),
    README.indexOf("\n### ", README.indexOf("\n## Commands\n")),
  );
  const usages = new Map<string, string>();
  for (const [, cell] of section.matchAll(/^\| `([^`]+)`/gm)) {
    const words = cell!
      .replaceAll("\\|", "|")
      .replace(/\s*\[?--[\w-]+( [^\]\s]+)?\]?/g, "")
      .trim()
      .split(" ");
    usages.set(words[0]!, words.slice(1).join(" "));
  }
  return usages;
}

/** The arguments of `lance-nd <command> --help`'s usage line. */
function helpUsage(command: string): string {
  const run = cli([command, "--help"]);
  expect(run.code, run.stderr).toBe(0);
  const line = run.stdout.split("\n")[0]!;
  return line.replace(`Usage: lance-nd ${command} [options]`, "").trim();
}

describe("the CLI README and --help", () => {
  const top = () => cli(["--help"]).stdout;

  it("the README's command table lists every command of --help, and only those", () => {
    const listed = [...top().matchAll(/^ {2}([a-z]+) /gm)].map((m) => m[1]!).filter((c) => c !== "help");
    expect([...readmeUsages().keys()].sort()).toEqual(listed.sort());
  });

  it("each command's arguments in the README are those of its --help usage line", () => {
    const readme = readmeUsages();
    const help = new Map([...readme.keys()].map((command) => [command, helpUsage(command)]));
    expect(readme).toEqual(help);
  });

  it("the top-level --help lists each command by its usage line (import with its files and then the table)", () => {
    const text = top();
    for (const command of readmeUsages().keys()) {
      const args = helpUsage(command);
      expect(text).toMatch(
        new RegExp(`^ {2}${command} \\[options\\]${args === "" ? "" : ` ${escapeRegExp(args)}`} `, "m"),
      );
    }
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
