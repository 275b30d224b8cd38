/**
 * A netCDF file as an input of `lance-nd import`: local or at an
 * `http(s)://` URL (import-fetch.ts), at the region and variables of
 * `--isel`, `--sel` and `--project` (import-selection.ts, the same
 * resolution as for Zarr stores; @lance-nd/netcdf's `selectNetcdf` reads
 * only the hyperslabs or byte ranges the region touches); its rows are the
 * file's own (`NetcdfFile.rowPlan`: by `--chunk` or its size).
 */
import { isReservedName } from "@lance-nd/format";
import type { NdSource } from "@lance-nd/nd-arrow";
import { netcdfRowPlan, openNetcdf, selectNetcdf, type NetcdfFile } from "@lance-nd/netcdf";
import { isUrl, openNetcdfAtUrl, type RemoteOptions } from "./import-fetch.js";
import { type ImportSelection, regionOf, selects } from "./import-selection.js";
import { zarrCall } from "./zarr-errors.js";
import { CliError } from "../errors.js";

/**
 * The netCDF file at `path` or its `group` (or at an `http(s)://` URL, read as
 * `remote` says: `openNetcdfAtUrl`) as an import input, the part `selection`
 * takes; its rows are the file's own (`NetcdfFile.rowPlan`). A selection
 * the file cannot give (a dim or variable it lacks, a range that takes
 * nothing) or a `chunk` along a dim it lacks is `InvalidArgument` naming
 * it; the file is closed.
 */
export async function openNetcdfSource(
  path: string,
  chunk: ReadonlyMap<string, number> | undefined,
  selection: ImportSelection,
  remote: RemoteOptions,
  group: string | undefined,
): Promise<NdSource> {
  const options = group === undefined ? {} : { group };
  let file = withoutReserved(
    path,
    await zarrCall(() =>
      isUrl(path) ? openNetcdfAtUrl(path, options, remote.maxRequests, remote.fetched) : openNetcdf(path, options),
    ),
  );
  try {
    if (selects(selection)) {
      for (const name of selection.project ?? []) projected(file, name);
      file = selectNetcdf(file, await regionOf(file, selection), selection.project);
    }
    if (chunk !== undefined) checkChunk(file, chunk);
  } catch (err) {
    await file.close();
    throw err;
  }
  return file;
}

/**
 * The netCDF file at `path` without its variables of names the format
 * reserves (`__global_attrs__`, `__stats__:...`: format README), each left
 * out with one warning line among its warnings, so the file's other
 * variables import.
 */
function withoutReserved(path: string, file: NetcdfFile): NetcdfFile {
  const reserved = file.variables.filter((v) => isReservedName(v.name)).map((v) => v.name);
  if (reserved.length === 0) return file;
  const variables = file.variables.filter((v) => !isReservedName(v.name));
  const names = variables.map((v) => v.name);
  const kept: NetcdfFile = {
    path: file.path,
    format: file.format,
    dims: file.dims,
    variables,
    globalAttrs: file.globalAttrs,
    groups: file.groups,
    warnings: [
      ...file.warnings,
      ...reserved.map(
        (name) =>
          `${path}: variable "${name}" left out: names that start with "__" belong to the lance-nd format; the other variables are imported`,
      ),
    ],
    variable: (name) => file.variable(name),
    read: (name, selection) => file.read(name, selection),
    chunks: (sizes, options) => file.chunks(sizes, { variables: options?.variables ?? names }),
    rowPlan: (budget, sizes) => netcdfRowPlan(kept, budget, sizes),
    close: () => file.close(),
  };
  return kept;
}

/** `InvalidArgument` naming the dims of `chunk` (`--chunk`) that the variables of `file` lack. */
function checkChunk(file: NetcdfFile, chunk: ReadonlyMap<string, number>): void {
  const dims = [...new Set(file.variables.flatMap((v) => v.dims.map((d) => d.name)))];
  const unknown = [...chunk.keys()].filter((d) => !dims.includes(d));
  if (unknown.length > 0) {
    throw new CliError(
      "InvalidArgument",
      `${file.path}: --chunk names ${unknown.join(", ")}, which the file does not have (its dims: ${dims.join(", ")})`,
      { path: file.path },
    );
  }
}

/** `InvalidArgument` naming `--project` `name` when `file` has no such variable. */
function projected(file: NetcdfFile, name: string): void {
  if (!file.variables.some((v) => v.name === name))
    throw new CliError(
      "InvalidArgument",
      `${file.path}: --project ${name}: no such variable (the file has ${file.variables.map((v) => v.name).join(", ")})`,
      { path: file.path },
    );
}
