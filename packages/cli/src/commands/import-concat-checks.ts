/**
 * What `import --concat` checks of the files beyond their order along the
 * dim (CLI README, "Many files, one dataset"), as xarray's
 * `open_mfdataset(files, data_vars="minimal", coords="minimal",
 * compat="equals")` requires: every file has the same variables on the same
 * dims, each variable without the dim (a land mask, 2-D lat/lon) holds the
 * same values in every file, and no two files have the same base name (the
 * `_SourceFile` that names a file's rows, which `--mode replace` finds them
 * by).
 */
import { basename } from "node:path";
import type { NdArray } from "@lance-nd/nd-arrow";
import { CliError } from "../errors.js";
import type { ImportSource } from "./import-source.js";

/** Variables compared at once: one from the first file and one from another. */
type Variable = ImportSource["variables"][number];

/**
 * Refuses (`InvalidArgument`) files of one `--concat` import that two have
 * the same base name, that differ in their variables or a variable's dims,
 * or whose variables without `dim` differ in type, shape or a value (NaN
 * equals NaN, as xarray's `equals`). Each variable is read from two files at
 * a time, so memory is two variables' values.
 */
export async function checkConcatFiles(files: readonly ImportSource[], dim: string): Promise<void> {
  refuseSameNames(files);
  const [first, ...rest] = files;
  if (first === undefined) return;
  for (const file of rest) refuseOtherVariables(file, first);
  const invariant = first.variables.filter((v) => !v.dims.some((d) => d.name === dim) && !isCoordinate(v, dim));
  for (const variable of invariant) {
    const reference = await first.read(variable.name);
    for (const file of rest) {
      const difference = firstDifference(reference, await file.read(variable.name));
      if (difference !== undefined) {
        throw invalid(
          `"${variable.name}" differs between ${first.path} and ${file.path} (${difference}); a variable without "${dim}" must be equal in every file, as xarray's open_mfdataset(..., compat="equals") requires`,
        );
      }
    }
  }
}

/** True for the dim's own coordinate, or a 1-D coordinate of another dim (`planConcat` compares those). */
function isCoordinate(variable: Variable, dim: string): boolean {
  return variable.dims.length === 1 && variable.dims[0]!.name === variable.name && variable.name !== dim;
}

function refuseSameNames(files: readonly ImportSource[]): void {
  const byName = new Map<string, string>();
  for (const file of files) {
    const name = basename(file.path);
    const other = byName.get(name);
    if (other !== undefined) {
      throw invalid(
        `${other} and ${file.path} have the same name "${name}": the rows of a file are named by its base name (_SourceFile), so --mode replace could not tell them apart; rename one`,
      );
    }
    byName.set(name, file.path);
  }
}

function refuseOtherVariables(file: ImportSource, first: ImportSource): void {
  const dimsOf = (v: Variable) => v.dims.map((d) => d.name).join(", ");
  const mine = new Map(file.variables.map((v) => [v.name, v]));
  const theirs = new Map(first.variables.map((v) => [v.name, v]));
  const missing = [...theirs.keys()].filter((name) => !mine.has(name));
  const extra = [...mine.keys()].filter((name) => !theirs.has(name));
  if (missing.length > 0 || extra.length > 0) {
    const parts = [
      missing.length === 0 ? "" : `lacks ${missing.map((n) => `"${n}"`).join(", ")}`,
      extra.length === 0 ? "" : `has ${extra.map((n) => `"${n}"`).join(", ")} that ${first.path} lacks`,
    ].filter(Boolean);
    throw invalid(`${file.path} ${parts.join(" and ")}: the files of one dataset must have the same variables`);
  }
  for (const [name, variable] of theirs) {
    if (dimsOf(mine.get(name)!) !== dimsOf(variable)) {
      throw invalid(
        `"${name}" has dims (${dimsOf(mine.get(name)!)}) in ${file.path}, (${dimsOf(variable)}) in ${first.path}: the files of one dataset must agree`,
      );
    }
  }
}

/** Where `b` first differs from `a` (type, shape, a value or a null), or undefined when they are equal. */
function firstDifference(a: NdArray, b: NdArray): string | undefined {
  if (String(a.type) !== String(b.type)) return `its type is ${String(a.type)}, then ${String(b.type)}`;
  const shape = (x: NdArray) => x.dims.map((d) => d.size).join(" x ");
  if (shape(a) !== shape(b)) return `its shape is ${shape(a)}, then ${shape(b)}`;
  const [va, vb] = [a.values.toArray() as ArrayLike<unknown>, b.values.toArray() as ArrayLike<unknown>];
  const nulls = a.values.nullCount > 0 || b.values.nullCount > 0;
  for (let i = 0; i < va.length; i++) {
    if (nulls && (!a.values.isValid(i) || !b.values.isValid(i))) {
      if (a.values.isValid(i) === b.values.isValid(i)) continue;
    } else {
      const [x, y] = [va[i], vb[i]];
      // Object.is: NaN equals NaN; 64-bit integers and other objects compare by their text.
      if (x === y || Object.is(x, y) || (typeof x === "object" && String(x) === String(y))) continue;
    }
    return `at flat index ${i}: ${show(a, i)} then ${show(b, i)}`;
  }
  return undefined;
}

function show(array: NdArray, i: number): string {
  return array.values.isValid(i) ? String(array.values.get(i)) : "missing";
}

function invalid(message: string): CliError {
  return new CliError("InvalidArgument", message);
}
