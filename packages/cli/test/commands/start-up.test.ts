import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Command } from "commander";
import { beforeAll, describe, expect, it } from "vitest";
import { COMMANDS } from "../../src/commands/catalog.js";
import { CLI, cli, cliProcess, ensureBuilt, tempDir } from "./harness.js";

const dir = tempDir();
const HEAVY = ["@lancedb/lancedb", "apache-arrow", "h5wasm"];

/**
 * The modules a run of the built CLI loads: through Node's ESM loader (a
 * resolve hook, module.register, appends each resolved URL to a file) and
 * through `require` (the paths in its cache, appended when the process exits).
 */
function loadedModules(args: readonly string[]): { code: number | null; stdout: string; urls: string[] } {
  const log = join(dir, `loaded-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(log, "");
  const hooks = join(dir, "hooks.mjs");
  writeFileSync(
    hooks,
    [
      'import { appendFileSync } from "node:fs";',
      "export async function resolve(specifier, context, next) {",
      "  const out = await next(specifier, context);",
      "  appendFileSync(process.env.LOADED_LOG, out.url + '\\n');",
      "  return out;",
      "}",
    ].join("\n"),
  );
  const register = join(dir, "register.mjs");
  writeFileSync(
    register,
    [
      'import { appendFileSync } from "node:fs";',
      'import { createRequire, register } from "node:module";',
      'import { pathToFileURL } from "node:url";',
      `register(${JSON.stringify(pathToFileURL(hooks).href)});`,
      "const required = createRequire(import.meta.url).cache;",
      "process.on('exit', () => appendFileSync(process.env.LOADED_LOG, Object.keys(required).map((path) => pathToFileURL(path).href + '\\n').join('')));",
    ].join("\n"),
  );
  const run = spawnSync(process.execPath, ["--import", pathToFileURL(register).href, CLI, ...args], {
    encoding: "utf8",
    env: { ...process.env, LOADED_LOG: log },
  });
  return { code: run.status, stdout: run.stdout, urls: readFileSync(log, "utf8").split("\n").filter(Boolean) };
}

const heavyIn = (urls: readonly string[]) =>
  HEAVY.filter((name) => urls.some((url) => url.includes(`/node_modules/${name}/`)));

beforeAll(() => ensureBuilt());

describe("the CLI loads only what a command uses", () => {
  it("--version and --help load none of lancedb, apache-arrow or h5wasm", () => {
    for (const args of [["--version"], ["--help"], []]) {
      const run = loadedModules(args);
      expect(run.urls.length).toBeGreaterThan(1);
      expect(heavyIn(run.urls)).toEqual([]);
    }
    expect(loadedModules(["--version"]).stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("a command loads its own modules: info loads lancedb and Arrow, not h5wasm", () => {
    const info = loadedModules(["info", join(dir, "none.lance")]);
    expect(info.code).toBe(1);
    expect(heavyIn(info.urls)).toEqual(["@lancedb/lancedb", "apache-arrow"]);
    // One apache-arrow: the CommonJS build lancedb requires, not also the ESM one.
    const arrowFiles = info.urls.filter((url) => /\/node_modules\/apache-arrow\/Arrow\.node\.m?js$/.test(url));
    expect(arrowFiles.map((url) => url.slice(url.lastIndexOf("/") + 1))).toEqual(["Arrow.node.js"]);
  });

  it("each catalog entry lists its command as the command's own module declares it", async () => {
    const io = { stdout: process.stdout, stderr: process.stderr } as never;
    for (const entry of COMMANDS) {
      const program = new Command();
      (await entry.load())(program, io);
      const command = program.commands.find((c) => c.name() === entry.name);
      expect(command, entry.name).toBeDefined();
      // Its usage line without the options: its arguments as commander shows them, or as the command spells them (import's table).
      const args = command!.usage().replace(/^\[options\] ?/, "");
      expect([entry.name, args, entry.description]).toEqual([command!.name(), entry.args, command!.description()]);
    }
  });

  it("help <command> shows the command's own options and exits 0", () => {
    const run = cli(["help", "scan"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("--project <names>");
  });
});

describe("the executable", () => {
  it("prints what the program prints and exits with its code: 0 done, 1 failed, 2 a usage error", () => {
    const cases: [string[], number][] = [
      [["--version"], 0],
      [["info", join(dir, "none.lance")], 1],
      [["scan", join(dir, "none.lance"), "--no-such-option"], 2],
    ];
    for (const [args, code] of cases) {
      const own = cliProcess(args);
      expect(own.code, args.join(" ")).toBe(code);
      expect(own, args.join(" ")).toEqual(cli(args));
    }
  });

  it("keeps lancedb's own log lines from the user: a first demo writes new tables and prints nothing on stderr", () => {
    const folder = join(dir, "first-demo");
    mkdirSync(folder);
    const run = cliProcess(["demo"], folder);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
  });
});
