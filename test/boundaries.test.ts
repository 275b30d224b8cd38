import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// The pure tier (no storage, no Lance) must never reach @lancedb/*, neither
// through its own dependencies nor through a workspace package it uses.
const root = join(import.meta.dirname, "..");
const PURE = ["nd-arrow", "casting", "stats", "format", "cf"];
// Packages whose purpose is files: no Lance, but they may use node: modules.
const FILE_PACKAGES = ["netcdf"];

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

function manifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(root, "packages", dir, "package.json"), "utf8")) as Manifest;
}

const byName = new Map(readdirSync(join(root, "packages")).map((dir) => [manifest(dir).name, dir]));

function dependencyClosure(dir: string, seen = new Set<string>()): Set<string> {
  const m = manifest(dir);
  for (const dep of Object.keys({ ...m.dependencies, ...m.peerDependencies, ...m.devDependencies })) {
    if (seen.has(dep)) continue;
    seen.add(dep);
    const local = byName.get(dep);
    if (local !== undefined) dependencyClosure(local, seen);
  }
  return seen;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith(".ts") ? [path] : [];
  });
}

describe("package boundaries", () => {
  for (const dir of PURE) {
    it(`${dir} does not depend on @lancedb/* (directly or through workspace packages)`, () => {
      const lance = [...dependencyClosure(dir)].filter((d) => d.startsWith("@lancedb/"));
      expect(lance).toEqual([]);
    });

    it(`${dir} source does not import @lancedb/* or node: modules`, () => {
      const offenders = sourceFiles(join(root, "packages", dir, "src")).filter((file) =>
        /from\s+["'](@lancedb\/|node:)/.test(readFileSync(file, "utf8")),
      );
      expect(offenders).toEqual([]);
    });
  }

  // Packages whose purpose is files: no Lance, and node: only in their seams (files, worker threads).
  for (const [dir, seams] of [["zarr", ["store-files.ts", "blosc-pool.ts", "blosc-worker.ts"]]] as const) {
    it(`${dir} does not depend on @lancedb/* and imports node: only in src/{${seams.join(",")}}`, () => {
      expect([...dependencyClosure(dir)].filter((d) => d.startsWith("@lancedb/"))).toEqual([]);
      const offenders = sourceFiles(join(root, "packages", dir, "src")).filter(
        (file) =>
          /from\s+["']@lancedb\//.test(readFileSync(file, "utf8")) ||
          (!seams.some((seam) => file.endsWith(`/${seam}`)) && /from\s+["']node:/.test(readFileSync(file, "utf8"))),
      );
      expect(offenders).toEqual([]);
    });
  }

  for (const dir of FILE_PACKAGES) {
    it(`${dir} does not depend on or import @lancedb/*`, () => {
      expect([...dependencyClosure(dir)].filter((d) => d.startsWith("@lancedb/"))).toEqual([]);
      const offenders = sourceFiles(join(root, "packages", dir, "src")).filter((file) =>
        /from\s+["']@lancedb\//.test(readFileSync(file, "utf8")),
      );
      expect(offenders).toEqual([]);
    });
  }
});

// A package is reached only through its exports (its name, or the one
// internal subpath `lance-nd/internal`): no file outside a package imports
// its src/ or test/ by path. The root folders (bench, reliability, test) are
// one unit, the repository's own suites.
function ownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return ["node_modules", "dist", ".turbo"].includes(entry.name) ? [] : ownFiles(path);
    return /\.(ts|mjs)$/.test(entry.name) ? [path] : [];
  });
}

describe("imports across package folders", () => {
  const units: [string, string[]][] = [
    ["bench, reliability, test", ["bench", "reliability", "test"]],
    ...readdirSync(join(root, "packages")).map((dir): [string, string[]] => [
      `packages/${dir}`,
      [join("packages", dir)],
    ]),
  ];
  for (const [unit, folders] of units) {
    it(`${unit}: no import of another package's files by path`, () => {
      const inside = (target: string) => folders.some((folder) => target.startsWith(`${join(root, folder)}/`));
      const offenders = folders
        .flatMap((folder) => ownFiles(join(root, folder)))
        .flatMap((file) =>
          [...readFileSync(file, "utf8").matchAll(/from\s+["'](\.{1,2}\/[^"']*)["']/g)]
            .map((m) => join(file, "..", m[1]!))
            .filter((target) => !inside(target))
            .map((target) => `${file.slice(root.length + 1)} -> ${target.slice(root.length + 1)}`),
        );
      expect(offenders).toEqual([]);
    });
  }
});
