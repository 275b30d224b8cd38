#!/usr/bin/env node
// The packages as a user installs them: builds the workspace, packs every
// package under packages/ (`pnpm pack`, so `workspace:*` becomes a version),
// lints each tarball (publint --strict; @arethetypeswrong/cli where it has
// types), installs packages into fresh projects outside the repository as
// the root README says (pack.mjs packs a choice of packages and their
// workspace dependencies into a folder, then `npm install <folder>/*.tgz`),
// type-checks the README examples there as an app compiles them (tsc's
// defaults: strict, skipLibCheck off; moduleResolution NodeNext and Bundler)
// and runs them:
//
// - each library with a `## Example` TypeScript block in its README, alone
//   (only its own tarballs and peer dependencies; a library that does not
//   depend on @lancedb/lancedb must install without it), type-checked against
//   the packed .d.ts files and run;
// - lance-nd as an app would: the root README's "A taste" (write, then scan),
//   plus a check that the members marked @internal and the helpers of
//   @lance-nd/nd-arrow/internal are not in the public types; and "A taste"
//   again in an app on the lowest apache-arrow of the peer range (15.0.2);
// - every package with a `bin`: `npx <bin> --help`, and for the CLI the demo.
//
// Run: node scripts/check-packages.mjs  (root script `check:packages`).
// `--run-only` leaves out what does not depend on the Node version that
// runs it (publint, attw and the type checks): CI's runs on other Nodes.
// Needs the npm registry (or npm's cache) for third-party dependencies.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closure as workspaceClosure, packInto, publishedPackages, ROOT as root } from "./pack.mjs";

const bin = (name) => join(root, "node_modules", ".bin", name);
const tsx = import.meta.resolve("tsx");
const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
const work = mkdtempSync(join(tmpdir(), "lance-nd-packages-"));
const temporary = join(work, "tmp");
mkdirSync(temporary);
// The work folder goes however the check ends: done, failed, or stopped by
// a signal (CI stops the background check when the tests fail).
process.on("exit", () => rmSync(work, { recursive: true, force: true }));
for (const [signal, code] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
]) {
  process.on(signal, () => process.exit(code));
}
const started = Date.now();
const PNPM = ["--yes", "pnpm@12.21.0"];

/** Runs a command; resolves to its stdout. On failure prints its output and rejects. */
function run(cmd, args, { cwd = root } = {}) {
  const line = `$ ${[cmd, ...args].join(" ")}${cwd === root ? "" : `   (in ${cwd})`}`;
  console.log(line);
  return new Promise((resolve, reject) => {
    // The README examples, tsx and npm make temporary files of their own: in
    // the work folder, removed at the end, so that nothing stays in /tmp.
    const env = { ...process.env, NO_COLOR: "1", TMPDIR: temporary };
    execFile(cmd, args, { cwd, encoding: "utf8", env, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err === null) return resolve(stdout);
      console.log(`${line}\n${stdout}${stderr}`);
      reject(new Error(`failed: ${[cmd, ...args].join(" ")}`));
    });
  });
}

/** Logs how long a phase took. */
async function phase(name, work) {
  const t0 = Date.now();
  const out = await work();
  console.log(`-- ${name}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return out;
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

/** A folder name for a package name. */
const slug = (name) => name.replace(/^@/, "").replace("/", "-");

// 1. Build and pack every package that is not private.
await phase("build", () => run("npx", [...PNPM, "run", "build", "--output-logs=errors-only"]));
const tarballs = join(work, "tarballs");
mkdirSync(tarballs);
const packages = publishedPackages();
await phase("pack", () =>
  Promise.all(
    [...packages.values()].map(async (pkg) => {
      const dest = join(tarballs, slug(pkg.manifest.name));
      mkdirSync(dest);
      await run("npx", [...PNPM, "pack", "--pack-destination", dest], { cwd: pkg.dir });
      const [tarball] = readdirSync(dest);
      if (tarball === undefined) throw new Error(`pnpm pack made no tarball in ${pkg.dir}`);
      pkg.tarball = join(dest, tarball);
    }),
  ),
);

/** What publint does not check: this repository's own rules for a published package. */
async function checkManifest({ manifest, tarball }) {
  const problems = [];
  const exported = JSON.stringify(manifest.exports ?? {});
  if (exported.includes('"development"')) {
    problems.push(
      'exports use the "development" condition, which Vite and webpack turn on for users: use "@lance-nd/source"',
    );
  }
  if (manifest.license !== "Apache-2.0") problems.push(`license is ${manifest.license}, not Apache-2.0`);
  const files = (await run("tar", ["-tzf", tarball])).split("\n");
  for (const file of ["package/LICENSE", "package/README.md"])
    if (!files.includes(file)) problems.push(`the tarball has no ${file.slice(8)}`);
  if (exported.includes("./src/") && !files.some((f) => f.startsWith("package/src/"))) {
    problems.push('exports point at src/ (the "@lance-nd/source" condition) but "files" leaves src out');
  }
  if (problems.length > 0) throw new Error(`${manifest.name}: ${problems.join("; ")}`);
}

/**
 * The subpath exports that resolve only under the repository's own
 * "@lance-nd/source" condition (e.g. `lance-nd/internal`): not published
 * API, so users cannot resolve them and attw is not asked to.
 */
function sourceOnlyEntries(manifest) {
  return Object.entries(manifest.exports ?? {})
    .filter(([, target]) => typeof target === "object" && Object.keys(target).join() === "@lance-nd/source")
    .map(([subpath]) => subpath);
}

// 2. Lint each tarball.
const runOnly = process.argv.includes("--run-only");

if (!runOnly)
  await phase("publint + attw", () =>
    Promise.all(
      [...packages.values()].map(async ({ manifest, tarball }) => {
        await checkManifest({ manifest, tarball });
        await run(bin("publint"), ["run", tarball, "--strict"]);
        const hasTypes = manifest.types !== undefined || JSON.stringify(manifest.exports ?? {}).includes('"types"');
        const exclude = sourceOnlyEntries(manifest);
        const excluded = exclude.length > 0 ? ["--exclude-entrypoints", ...exclude] : [];
        if (hasTypes)
          await run(bin("attw"), [tarball, "--profile", "esm-only", "--no-emoji", "--no-color", ...excluded]);
      }),
    ),
  );

/** `name` and the workspace packages it depends on. */
const closure = (name) => workspaceClosure(packages, [name]);

/** How an app compiles: tsc's defaults (skipLibCheck off) and strict, under each module resolution an app uses. */
const APP_COMPILER_OPTIONS = {
  "tsconfig.json": { module: "NodeNext", moduleResolution: "NodeNext" },
  "tsconfig.bundler.json": { module: "ESNext", moduleResolution: "Bundler" },
};

/**
 * A fresh npm project with `names` installed as the root README says: their
 * tarballs and their workspace dependencies' packed into one folder
 * (pack.mjs), then `npm install <folder>/*.tgz` (npm adds the peers);
 * `extra` are more packages for the same install (e.g. a pinned peer).
 */
async function project(label, names, extra = []) {
  const dir = join(work, label);
  mkdirSync(dir);
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: `check-${label}`, private: true, type: "module" }));
  for (const [file, resolution] of Object.entries(APP_COMPILER_OPTIONS)) {
    const compilerOptions = { target: "ES2022", strict: true, noEmit: true, types: [], ...resolution };
    writeFileSync(join(dir, file), JSON.stringify({ compilerOptions, include: ["*.ts"] }));
  }
  const packed = new Map([...packages].map(([name, { tarball }]) => [name, tarball]));
  const tgz = packInto(join(work, `${label}-packs`), names, packages, packed);
  await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error", ...tgz, ...extra], {
    cwd: dir,
  });
  return dir;
}

/** Type-checks the project's .ts files against the installed .d.ts files (each app configuration), runs `code`, and returns its output. */
async function runExample(dir, code) {
  writeFileSync(join(dir, "example.ts"), code);
  if (!runOnly)
    for (const config of Object.keys(APP_COMPILER_OPTIONS)) await run("node", [tsc, "-p", config], { cwd: dir });
  const out = await run("node", ["--import", tsx, "example.ts"], { cwd: dir });
  console.log(`${dir}:\n${out}`);
  return out;
}

/** Each library's README example, with only that library installed. Resolves to the name when it ran without Lance. */
async function libraryAlone(name, dir) {
  const code = tsBlockAfter(join(dir, "README.md"), "## Example");
  if (code === undefined) return undefined;
  const cwd = await project(slug(name), [name]);
  // A README example may be a function named `example`; call it.
  const calls =
    /\bfunction example\(/.test(code) && !/\bexample\(\)(?!\s*:)/.test(code.replace(/function example\(/, ""));
  await runExample(cwd, calls ? `${code}\nconsole.log(example());\n` : code);
  if ([...closure(name)].some((n) => packages.get(n).manifest.dependencies?.["@lancedb/lancedb"])) return undefined;
  if (existsSync(join(cwd, "node_modules", "@lancedb"))) throw new Error(`${name} installed @lancedb/lancedb`);
  return name;
}

/**
 * The lowest apache-arrow of the packages' peer range (`>=15.0.0 <=18.1.0`):
 * an app on it runs "A taste" too, beside the one on the 18.1.0 they are
 * built and tested with.
 */
const LOWEST_ARROW = "15.0.2";

/** lance-nd as an app would: the root README's "A taste" writes a table and scans it. */
async function app() {
  const cwd = await project("app", ["lance-nd", "@lance-nd/nd-arrow"]);
  // The members marked @internal (stripInternal) and nd-arrow's internal entry are not in the public types.
  const probe = [
    'import * as ndArrow from "@lance-nd/nd-arrow";',
    'import { NdScan, NdTable } from "lance-nd";',
    "export function probe(table: NdTable): void {",
    "  // @ts-expect-error NdTable.lance is internal",
    "  void table.lance;",
    "  // @ts-expect-error NdTable.refresh is internal",
    "  void table.refresh();",
    "  // @ts-expect-error NdTable.fromLance is internal",
    '  void (table.constructor as typeof import("lance-nd").NdTable).fromLance;',
    "  // @ts-expect-error the NdScan constructor is private (scan(table) makes one), not an implicit public new ()",
    "  void new NdScan();",
    "  // @ts-expect-error the NdTable constructor is private (open, write and checkout make one)",
    "  void new NdTable();",
    "  // @ts-expect-error lance-nd/internal resolves only inside the repository (the @lance-nd/source condition)",
    '  void import("lance-nd/internal");',
    "  // @ts-expect-error recordBatchOf is in @lance-nd/nd-arrow/internal (for the lance-nd packages), not the main entry",
    "  void ndArrow.recordBatchOf;",
    "}",
    "",
  ];
  writeFileSync(join(cwd, "internals.ts"), probe.join("\n"));
  await runTaste(cwd);
}

/** The root README's "A taste" in the app at `cwd`: it must print the shape it wrote. */
async function runTaste(cwd) {
  const taste = tsBlockAfter(join(root, "README.md"), "## A taste");
  const out = await runExample(cwd, taste.replace("data/ocean.lance", join(cwd, "data", "ocean.lance")));
  if (out.trim() !== "a [ 4, 180, 360 ]") throw new Error(`the README's "A taste" printed ${JSON.stringify(out)}`);
}

/** "A taste" in an app that pins the lowest apache-arrow the packages accept. */
async function appOnLowestArrow() {
  const cwd = await project("app-arrow-lowest", ["lance-nd", "@lance-nd/nd-arrow"], [`apache-arrow@${LOWEST_ARROW}`]);
  const installed = JSON.parse(readFileSync(join(cwd, "node_modules", "apache-arrow", "package.json"), "utf8"));
  if (installed.version !== LOWEST_ARROW)
    throw new Error(`the app got apache-arrow ${installed.version}, not ${LOWEST_ARROW}`);
  await runTaste(cwd);
}

/** Every bin of `name` through npx; the CLI's demo writes, scans and plots a table. */
async function bins(name, manifest) {
  const cwd = await project(`${slug(name)}-bin`, [name]);
  for (const command of Object.keys(manifest.bin)) await run("npx", ["--no-install", command, "--help"], { cwd });
  if (Object.hasOwn(manifest.bin, "lance-nd")) {
    const demo = JSON.parse(
      await run("npx", ["--no-install", "lance-nd", "demo", "--dir", join(cwd, "demo"), "--json"], { cwd }),
    );
    if (typeof demo !== "object" || demo === null) throw new Error("lance-nd demo --json printed no object");
    console.log(await run("npx", ["--no-install", "lance-nd", "info", join(cwd, "demo", "ocean.lance")], { cwd }));
  }
}

// 3. The examples and bins, each project installed and run concurrently.
const results = await phase("install + examples", () =>
  Promise.all([
    ...[...packages].map(([name, { dir }]) => libraryAlone(name, dir)),
    ...(packages.has("lance-nd") ? [app()] : []),
    ...(packages.has("lance-nd") && !runOnly ? [appOnLowestArrow()] : []),
    ...[...packages]
      .filter(([, { manifest }]) => manifest.bin !== undefined)
      .map(([name, { manifest }]) => bins(name, manifest)),
  ]),
);

const lanceFree = results.filter((r) => typeof r === "string");
const seconds = ((Date.now() - started) / 1000).toFixed(0);
console.log(
  `packages ok: ${packages.size} packed, linted and installed; examples ran alone without Lance: ${lanceFree.join(", ")} (${seconds} s)`,
);
