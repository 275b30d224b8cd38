import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { boundByFileModes, fileModesSkipReason } from "../src/index.js";

// A repository cloned into a folder of mode 0700 (what `mktemp -d` makes,
// and what /root is): a script in it, a folder it cannot list, a file it
// cannot read.
const parent = mkdtempSync(join(tmpdir(), "lance-nd-private-"));
afterAll(() => {
  chmodSync(join(clone, "unlistable"), 0o755);
  rmSync(parent, { recursive: true, force: true });
});
const clone = join(parent, "repository");
mkdirSync(join(clone, "unlistable"), { recursive: true });
const script = join(clone, "probe.mjs");
writeFileSync(
  script,
  `import { readdirSync, readFileSync } from "node:fs";
const code = (read) => { try { read(); return "read"; } catch (err) { return err.code; } };
console.log(code(() => readdirSync(process.argv[2])), code(() => readFileSync(process.argv[3])), code(() => readFileSync(process.argv[4])));
`,
);
writeFileSync(join(clone, "secret.txt"), "x");
writeFileSync(join(clone, "open.txt"), "x");
chmodSync(join(clone, "secret.txt"), 0o000);
chmodSync(join(clone, "unlistable"), 0o311);

describe.skipIf(fileModesSkipReason(script) !== undefined)("boundByFileModes", () => {
  it("runs an executable of a clone under a 0700 folder, where a 0311 folder cannot be listed and a 0000 file cannot be read", () => {
    expect(statSync(parent).mode & 0o777).toBe(0o700);
    const command = boundByFileModes([
      process.execPath,
      script,
      join(clone, "unlistable"),
      join(clone, "secret.txt"),
      join(clone, "open.txt"),
    ]);
    const run = spawnSync(command[0]!, command.slice(1), { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.stdout.trim()).toBe("EACCES EACCES read");
  });

  it("keeps the bound in the processes the command starts", () => {
    const child = `require("node:child_process").execFileSync(process.execPath, [${JSON.stringify(script)}, ${JSON.stringify(join(clone, "unlistable"))}, ${JSON.stringify(join(clone, "secret.txt"))}, ${JSON.stringify(join(clone, "open.txt"))}], { stdio: "inherit" })`;
    const command = boundByFileModes([process.execPath, "-e", child]);
    const run = spawnSync(command[0]!, command.slice(1), { encoding: "utf8" });
    expect(run.stdout.trim()).toBe("EACCES EACCES read");
  });
});
