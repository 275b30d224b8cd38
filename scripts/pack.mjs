#!/usr/bin/env node
// `pnpm pack:local <folder> [package ...]`: the packages for an app, before
// anything is published (root README, "Use the packages in an app"). Builds
// the workspace, then packs the named packages (default: every published
// one) and the workspace packages they depend on into <folder>, one tarball
// each (`pnpm pack`, so `workspace:*` becomes a version). An app then
// installs them all at once, dependencies included:
//
//   npm install <folder>/*.tgz
//
// check-packages.mjs installs its fresh projects the same way.
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from "node:fs";
import { basename, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root folder. */
export const ROOT = join(fileURLToPath(import.meta.url), "..", "..");
const PNPM = ["--yes", "pnpm@12.21.0"];

/** The published (not private) packages under packages/: name -> { dir, manifest }. */
export function publishedPackages() {
  const packages = new Map();
  for (const dir of readdirSync(join(ROOT, "packages")).sort()) {
    const manifestFile = join(ROOT, "packages", dir, "package.json");
    if (!existsSync(manifestFile)) continue;
    const manifest = JSON.parse(readFileSync(manifestFile, "utf8"));
    if (!manifest.private) packages.set(manifest.name, { dir: join(ROOT, "packages", dir), manifest });
  }
  return packages;
}

/** `names` and the published workspace packages they depend on, transitively. */
export function closure(packages, names, out = new Set()) {
  for (const name of names) {
    if (!packages.has(name)) throw new Error(`${name} is not a published package of this repository`);
    if (out.has(name)) continue;
    out.add(name);
    const deps = Object.keys(packages.get(name).manifest.dependencies ?? {}).filter((dep) => packages.has(dep));
    closure(packages, deps, out);
  }
  return out;
}

/**
 * Packs `names` and their workspace dependencies (already built) into
 * `folder`, which must hold no other tarball; returns the tarballs' paths.
 * A package with a tarball in `packed` (name -> path) is copied from it.
 */
export function packInto(folder, names, packages = publishedPackages(), packed = new Map()) {
  mkdirSync(folder, { recursive: true });
  const tarballs = [];
  for (const name of closure(packages, names)) {
    const made = packed.get(name);
    if (made !== undefined) {
      tarballs.push(join(folder, basename(made)));
      copyFileSync(made, tarballs.at(-1));
      continue;
    }
    const scratch = mkdtempSync(join(folder, ".pack-"));
    try {
      execFileSync("npx", [...PNPM, "pack", "--pack-destination", scratch], {
        cwd: packages.get(name).dir,
        stdio: ["ignore", "ignore", "inherit"],
      });
      const [tarball] = readdirSync(scratch);
      if (tarball === undefined) throw new Error(`pnpm pack made no tarball for ${name}`);
      renameSync(join(scratch, tarball), join(folder, tarball));
      tarballs.push(join(folder, tarball));
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  return tarballs;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [folder, ...names] = process.argv.slice(2);
  if (folder === undefined || folder.startsWith("-")) {
    console.error("usage: pnpm pack:local <folder> [package ...]   (e.g. pnpm pack:local ~/lance-nd-packs lance-nd)");
    process.exit(2);
  }
  const packages = publishedPackages();
  const target = resolve(process.env.INIT_CWD ?? process.cwd(), folder);
  execFileSync("npx", [...PNPM, "run", "build", "--output-logs=errors-only"], { cwd: ROOT, stdio: "inherit" });
  const tarballs = packInto(target, names.length > 0 ? names : [...packages.keys()], packages);
  console.log(`${tarballs.length} packages in ${target}; in an app: npm install ${join(target, "*.tgz")}`);
}
