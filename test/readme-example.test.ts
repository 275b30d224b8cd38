import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";

// The root README's "A taste" example runs as written (on a temp table).
const root = join(import.meta.dirname, "..");

it("the README's write/scan example writes a table and finds the row by its stats", () => {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## A taste"));
  const code = section.slice(section.indexOf("```ts") + 5, section.indexOf("```", section.indexOf("```ts") + 5));
  const dir = mkdtempSync(join(tmpdir(), "lance-nd-readme-"));
  // Inside packages/lance-nd so that "lance-nd" and "@lance-nd/nd-arrow" resolve.
  const script = join(root, "packages/lance-nd", `.readme-example-${process.pid}.ts`);
  try {
    writeFileSync(script, code.replace("data/ocean.lance", join(dir, "ocean.lance")));
    const out = execFileSync(process.execPath, ["--conditions=@lance-nd/source", "--import", "tsx", script], {
      cwd: join(root, "packages/lance-nd"),
      encoding: "utf8",
    });
    expect(out.trim()).toBe("a [ 4, 180, 360 ]");
  } finally {
    rmSync(script, { force: true });
    rmSync(dir, { recursive: true, force: true });
  }
});
