import { beforeAll, describe, expect, it } from "vitest";
import { cli, ensureBuilt } from "./harness.js";

beforeAll(ensureBuilt);

describe("usage errors exit with 2 and one line", () => {
  it.each([
    ["an unknown command", ["frobnicate"], /^lance-nd: unknown command 'frobnicate'/],
    ["an unknown option", ["info", "t.lance", "--colour"], /^lance-nd: unknown option '--colour'/],
    ["a missing argument", ["restore", "t.lance"], /^lance-nd: missing required argument 'version'/],
    ["a missing required option", ["delete", "t.lance"], /^lance-nd: required option '--where <sql>' not specified/],
    [
      "a bad duration",
      ["cleanup", "t.lance", "--older-than", "7w"],
      /argument '7w' is invalid\. expected a number and a unit/,
    ],
    ["a bad type name", ["widen", "t.lance", "sst", "complex64"], /unknown type "complex64"/],
    [
      "a bad --mode",
      ["import", "a.nc", "t.lance", "--mode", "upsert"],
      /argument 'upsert' is invalid\. Allowed choices are create, append, replace, overwrite/,
    ],
    ["a bad --isel", ["plot", "t.lance", "sst", "--isel", "time"], /expected name=value/],
  ])("%s", (_what, args, message) => {
    const run = cli(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(run.stdout).toBe("");
  });

  it("no command prints the help on stderr and exits with 2", () => {
    const run = cli([]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/Usage: lance-nd/);
  });
});

describe("help and version exit with 0", () => {
  it("--help lists every command and the exit codes", () => {
    const run = cli(["--help"]);
    expect(run.code).toBe(0);
    for (const command of [
      "demo",
      "import",
      "export",
      "info",
      "vars",
      "scan",
      "delete",
      "compact",
      "cleanup",
      "versions",
      "restore",
      "widen",
      "defaults",
      "plot",
    ]) {
      expect(run.stdout).toMatch(new RegExp(`^  ${command}\\b`, "m"));
    }
    expect(run.stdout).toMatch(/Exit codes: 0 success, 1 .*, 2 a usage error/);
  });

  it("each command has --help with an example", () => {
    const run = cli(["plot", "--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Usage: lance-nd plot \[options\] <table> <variable>/);
    expect(run.stdout).toMatch(/Examples?:\n {2}lance-nd plot /);
  });

  it("--version prints the package version", () => {
    const run = cli(["--version"]);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
});

describe("user errors exit with 1 and one line", () => {
  it("a missing table names the table, without a stack", () => {
    const run = cli(["info", "/nonexistent/missing.lance"]);
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(/^lance-nd: cannot read \/nonexistent\/missing\.lance \(.*not found.*\)$/m);
  });

  it("--debug adds the stack", () => {
    const run = cli(["info", "/nonexistent/missing.lance", "--debug"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/\n\s+at /);
  });
});
