/** `lance-nd view` as a command: its help example, its address line, its errors and exit codes. */
import { spawn } from "node:child_process";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { beforeAll, describe, expect, it } from "vitest";
import { CLI, cli, ensureBuilt, tempDir } from "../commands/harness.js";

let dir: string;

beforeAll(() => {
  ensureBuilt();
  dir = tempDir();
  expect(cli(["demo"], dir).code).toBe(0); // ./lance-nd-demo/ocean.lance, as the help example expects
});

describe("lance-nd view", () => {
  it("runs its --help example as typed: prints the address with its token, stops on Ctrl+C with 0", async () => {
    const help = cli(["view", "--help"]);
    expect(help.code).toBe(0);
    const example = /Example:\n {2}lance-nd (view [^#\n]+?)\s+#/.exec(help.stdout)?.[1];
    expect(example).toBe("view lance-nd-demo/ocean.lance --port 0");
    const child = spawn(process.execPath, [CLI, ...example!.split(" ")], {
      cwd: dir,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once("line", resolve));
    expect(line).toMatch(
      /^lance-nd view: lance-nd-demo\/ocean\.lance at http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{48} {2}\(Ctrl\+C stops it\)$/,
    );
    const code = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.kill("SIGINT");
    expect(await code).toBe(0);
  });

  it.skipIf(process.platform !== "linux")("--open hands the address with its token to xdg-open", async () => {
    // A stand-in xdg-open first on PATH records what it was asked to open.
    const bin = tempDir();
    const opened = join(bin, "opened.txt");
    writeFileSync(join(bin, "xdg-open"), `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`);
    chmodSync(join(bin, "xdg-open"), 0o755);
    const child = spawn(
      process.execPath,
      [CLI, "view", "lance-nd-demo/ocean.lance", "--port", "0", "--json", "--open"],
      {
        cwd: dir,
        env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const { url } = JSON.parse(
      await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once("line", resolve)),
    ) as { url: string };
    await expect.poll(() => existsSync(opened) && readFileSync(opened, "utf8")).toBe(url);
    const code = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    expect(await code).toBe(0);
  });

  it("a missing table fails with 1 and one line, before serving", () => {
    const run = cli(["view", "nowhere/missing.lance", "--port", "0"], dir);
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(/^lance-nd: cannot view nowhere\/missing\.lance \(.*not found.*\)$/m);
  });

  it("a port in use fails with 1 and one line naming it", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const run = cli(["view", "lance-nd-demo/ocean.lance", "--port", String(port)], dir);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        new RegExp(
          `^lance-nd: cannot view lance-nd-demo/ocean.lance \\(cannot listen on 127.0.0.1:${port} \\(EADDRINUSE\\)\\)`,
        ),
      );
    } finally {
      taken.close();
    }
  });

  it("a bad --port is a usage error (2)", () => {
    for (const port of ["http", "70000", "-1"]) {
      const run = cli(["view", "lance-nd-demo/ocean.lance", "--port", port], dir);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/expected a port number \(0 to 65535\)|unknown option/);
    }
  });
});
