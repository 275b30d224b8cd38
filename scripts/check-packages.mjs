#!/usr/bin/env node
// The packages as a user installs them: builds the workspace, packs every
// package under packages/ (`pnpm pack`, so `workspace:*` becomes a version),
// lints each tarball (publint --strict; @arethetypeswrong/cli where it has
// types), installs the tarballs with npm into fresh projects outside the
// repository and runs the README examples there:
//
// - each library with a `## Example` TypeScript block in its README, alone
//   (only its own tarballs and peer dependencies; a library that does not
//   depend on @lancedb/lancedb must install without it), type-checked against
//   the packed .d.ts files and run;
// - lance-nd as an app would: the root README's "A taste" (write, then scan);
// - every package with a `bin`: `npx <bin> --help`, and for the CLI the demo.
//
// Run: node scripts/check-packages.mjs  (root script `check:packages`).
// Needs the npm registry (or npm's cache) for third-party dependencies.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(fileURLToPath(import.meta.url), "..", "..");
const tsx = import.meta.resolve("tsx");
const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
const work = mkdtempSync(join(tmpdir(), "lance-nd-packages-"));
const started = Date.now();

/** Runs a command, echoing it; its output is shown only when it fails (or always with `show`). */
function run(cmd, args, { cwd = root, show = false } = {}) {
  console.log(`$ ${[cmd, ...args].join(" ")}${cwd === root ? "" : `   (in ${cwd})`}`);
  try {
    const out = execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1" } });
    if (show) process.stdout.write(out);
    return out;
  } catch (err) {
    process.stdout.write(err.stdout ?? "");
    process.stderr.write(err.stderr ?? "");
    throw new Error(`failed: ${[cmd, ...args].join(" ")}`);
  }
}

/** The first ```ts block after `heading` in a markdown file. */
function tsBlockAfter(file, heading) {
  const text = readFileSync(file, "utf8");
  const at = text.indexOf(`\n${heading}\n`);
  if (at < 0) return undefined;
  const start = text.indexOf("```ts\n", at);
  if (start < 0) return undefined;
  return text.slice(start + 6, text.indexOf("\n```", start + 6) + 1);
}

// 1. Build and pack every package.
run("npx", ["--yes", "pnpm@12.21.0", "run", "build", "--output-logs=errors-only"]);
const tarballs = join(work, "tarballs");
mkdirSync(tarballs);
const packages = new Map();
for (const dir of readdirSync(join(root, "packages")).sort()) {
  const manifestFile = join(root, "packages", dir, "package.json");
  if (!existsSync(manifestFile)) continue;
  const manifest = JSON.parse(readFileSync(manifestFile, "utf8"));
  if (manifest.private) continue;
  const before = new Set(readdirSync(tarballs));
  run("npx", ["--yes", "pnpm@12.21.0", "pack", "--pack-destination", tarballs], { cwd: join(root, "packages", dir) });
  const tarball = readdirSync(tarballs).find((f) => !before.has(f));
  if (tarball === undefined) throw new Error(`pnpm pack made no tarball for packages/${dir}`);
  packages.set(manifest.name, { dir: join(root, "packages", dir), manifest, tarball: join(tarballs, tarball) });
}

// 2. Lint each tarball.
for (const { manifest, tarball } of packages.values()) {
  run("npx", ["publint", "run", tarball, "--strict"], { show: true });
  const hasTypes = manifest.types !== undefined || JSON.stringify(manifest.exports ?? {}).includes('"types"');
  if (hasTypes) run("npx", ["attw", tarball, "--profile", "esm-only", "--no-emoji", "--no-color"]);
}

/** `name` and the workspace packages it depends on. */
function closure(name, out = new Set()) {
  const pkg = packages.get(name);
  if (pkg === undefined || out.has(name)) return out;
  out.add(name);
  for (const dep of Object.keys(pkg.manifest.dependencies ?? {})) closure(dep, out);
  return out;
}

/** The required peer dependencies of `names`, at the versions this repository pins for development. */
function peers(names) {
  const specs = new Set();
  for (const name of names) {
    const { manifest } = packages.get(name);
    for (const peer of Object.keys(manifest.peerDependencies ?? {})) {
      if (manifest.peerDependenciesMeta?.[peer]?.optional) continue;
      specs.add(`${peer}@${manifest.devDependencies?.[peer] ?? manifest.peerDependencies[peer]}`);
    }
  }
  return [...specs];
}

/** A fresh npm project with the tarballs of `names` (and their closure) installed. */
function project(label, names) {
  const dir = join(work, label);
  mkdirSync(dir);
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: `check-${label}`, private: true, type: "module" }));
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { target: "ES2022", lib: ["ES2023", "DOM"], module: "NodeNext", moduleResolution: "NodeNext", strict: true, noEmit: true, skipLibCheck: true, types: [] },
      include: ["*.ts"],
    }),
  );
  const all = new Set();
  for (const name of names) closure(name, all);
  const tgz = [...all].map((n) => packages.get(n).tarball);
  run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error", ...tgz, ...peers(all)], { cwd: dir });
  return dir;
}

/** Type-checks `code` against the installed .d.ts files, runs it, and returns its output. */
function runExample(dir, code) {
  writeFileSync(join(dir, "example.ts"), code);
  run("node", [tsc, "-p", "."], { cwd: dir });
  return run("node", ["--import", tsx, "example.ts"], { cwd: dir, show: true });
}

// 3. Each library's README example, with only that library installed.
const lanceFree = [];
for (const [name, { dir }] of packages) {
  const code = tsBlockAfter(join(dir, "README.md"), "## Example");
  if (code === undefined) continue;
  const cwd = project(name.replace(/^@/, "").replace("/", "-"), [name]);
  // A README example may be a function named `example`; call it.
  const calls = /\bfunction example\(/.test(code) && !/\bexample\(\)(?!\s*:)/.test(code.replace(/function example\(/, ""));
  runExample(cwd, calls ? `${code}\nconsole.log(example());\n` : code);
  if (![...closure(name)].some((n) => packages.get(n).manifest.dependencies?.["@lancedb/lancedb"])) {
    if (existsSync(join(cwd, "node_modules", "@lancedb"))) throw new Error(`${name} installed @lancedb/lancedb`);
    lanceFree.push(name);
  }
}

// 4. lance-nd as an app would: the root README's "A taste" writes a table and scans it.
if (packages.has("lance-nd")) {
  const cwd = project("app", ["lance-nd", "@lance-nd/nd-arrow"]);
  // The members marked @internal are not in the published types (stripInternal).
  writeFileSync(
    join(cwd, "internals.ts"),
    [
      'import { NdScan, type NdTable } from "lance-nd";',
      "export function probe(table: NdTable): void {",
      "  // @ts-expect-error NdTable.lance is internal",
      "  void table.lance;",
      "  // @ts-expect-error NdTable.refresh is internal",
      "  void table.refresh();",
      "  // @ts-expect-error NdTable.fromLance is internal",
      "  void (table.constructor as typeof import(\"lance-nd\").NdTable).fromLance;",
      "  // @ts-expect-error the NdScan constructor is internal (scan(table) makes one)",
      "  void new NdScan(table, {});",
      "}",
      "",
    ].join("\n"),
  );
  const taste = tsBlockAfter(join(root, "README.md"), "## A taste");
  const out = runExample(cwd, taste.replace("data/ocean.lance", join(cwd, "data", "ocean.lance")));
  if (out.trim() !== "a [ 4, 180, 360 ]") throw new Error(`the README's "A taste" printed ${JSON.stringify(out)}`);
}

// 5. Every bin through npx; the CLI's demo writes, scans and plots a table.
for (const [name, { manifest }] of packages) {
  if (manifest.bin === undefined) continue;
  const cwd = project(`${name.replace(/^@/, "").replace("/", "-")}-bin`, [name]);
  for (const bin of Object.keys(manifest.bin)) run("npx", ["--no-install", bin, "--help"], { cwd });
  if (Object.hasOwn(manifest.bin, "lance-nd")) {
    const demo = JSON.parse(run("npx", ["--no-install", "lance-nd", "demo", "--dir", join(cwd, "demo"), "--json"], { cwd }));
    run("npx", ["--no-install", "lance-nd", "info", join(cwd, "demo", "ocean.lance")], { cwd, show: true });
    if (typeof demo !== "object" || demo === null) throw new Error("lance-nd demo --json printed no object");
  }
}

rmSync(work, { recursive: true, force: true });
const seconds = ((Date.now() - started) / 1000).toFixed(0);
console.log(`packages ok: ${packages.size} packed, linted and installed; examples ran alone without Lance: ${lanceFree.join(", ")} (${seconds} s)`);
