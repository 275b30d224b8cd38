/**
 * One input of `lance-nd import`, whatever its format: a netCDF file or a
 * Zarr store, with what the import pipeline needs before writing (its
 * variables and types after `--cf`, its size and row count) and its rows.
 * Both readers return stored values (nd-arrow README "Windows"); `--cf`
 * decodes them here and in `applyPlan`, one path for both formats.
 */
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import type { DataType } from "apache-arrow";
import type { Attrs, Dim, NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { arrowType, boundsTimeAttrs } from "@lance-nd/cf";
import { ncDtype, openNetcdf } from "@lance-nd/netcdf";
import type { CfMode } from "lance-nd/internal";
import type { SourceCf } from "./import-plan.js";
import { decodeFor, decodedType, emptyOf, keptRaw } from "./import-plan.js";
import { DEFAULT_ROW_BYTES, fileBytes, fileRows, planRows } from "./import-rows.js";
import { openZarrSource } from "./import-zarr.js";

/** An opened input of an import. */
export interface ImportSource {
  /** The path as given. */
  readonly path: string;
  /** The variables with their dims and attributes (as the rows carry them). */
  readonly variables: readonly { readonly name: string; readonly dims: readonly Dim[]; readonly attrs: Attrs }[];
  /** The global attributes. */
  readonly globalAttrs: Attrs;
  /** What the reader skipped (e.g. netCDF groups), one line each. */
  readonly warnings: readonly string[];
  /** Set when the input was cut into rows because of its size: says how. */
  readonly notice: string | undefined;
  /** The uncompressed bytes of its variables (for progress). */
  readonly bytes: number;
  /** The number of rows `rows()` yields. */
  readonly rowCount: number;
  /** The `--cf` decoding each row gets (in `applyPlan`). */
  readonly cf: SourceCf;
  /** A variable's type after `--cf` (undefined for a type that is not planned, e.g. strings). */
  typeAfterCf(name: string): DataType | undefined;
  /** One variable's values after `--cf`, as the rows hold them (e.g. a coordinate that orders `--concat` files). */
  read(name: string): Promise<NdArray>;
  /** The rows as stored, one in memory at a time. */
  rows(): AsyncGenerator<NdRecordBatch>;
  /** Releases the reader. */
  close(): Promise<void>;
}

/** What a reader gives an import: stored values, the variables with their stored types. */
export interface StoredSource {
  readonly path: string;
  readonly variables: readonly {
    readonly name: string;
    readonly dims: readonly Dim[];
    readonly attrs: Attrs;
    /** The stored value type (undefined: not planned). */
    readonly type: DataType | undefined;
  }[];
  readonly globalAttrs: Attrs;
  readonly warnings: readonly string[];
  readonly notice: string | undefined;
  readonly bytes: number;
  readonly rowCount: number;
  read(name: string): Promise<NdArray>;
  rows(): AsyncGenerator<NdRecordBatch>;
  close(): Promise<void>;
}

/** True when `path` is a directory holding a Zarr group or array (`zarr.json`, `.zgroup` or `.zarray`). */
export function isZarrStore(path: string): boolean {
  return (
    existsSync(path) &&
    statSync(path).isDirectory() &&
    ["zarr.json", ".zgroup", ".zarray"].some((name) => existsSync(join(path, name)))
  );
}

/**
 * Opens `path` (a Zarr store or a netCDF file), or its `group`, cut into
 * rows by `chunk` or its default row plan within `rowBytes` a row, decoded
 * under `mode`.
 */
export async function openSource(
  path: string,
  id: string,
  mode: CfMode,
  chunk: ReadonlyMap<string, number> | undefined,
  rowBytes = DEFAULT_ROW_BYTES,
  group?: string,
): Promise<ImportSource> {
  if (isZarrStore(path))
    return withCf(await openZarrSource(path, id, chunk, rowBytes, group), { mode, validRange: false });
  return withCf(await openNetcdfSource(path, chunk, rowBytes, group), { mode, validRange: mode === "mask-range" });
}

/** The netCDF file at `path` (or its `group`) as an import input, cut into rows by `chunk` or its size (`planRows`). */
async function openNetcdfSource(
  path: string,
  chunk: ReadonlyMap<string, number> | undefined,
  rowBytes: number,
  group: string | undefined,
): Promise<StoredSource> {
  const file = await openNetcdf(path, group === undefined ? {} : { group });
  let plan: ReturnType<typeof planRows>;
  try {
    plan = planRows(file, chunk, rowBytes);
  } catch (err) {
    await file.close();
    throw err;
  }
  return {
    path,
    variables: file.variables.map((v) => {
      const dtype = ncDtype(v.type);
      return { name: v.name, dims: v.dims, attrs: v.attrs, type: dtype === undefined ? undefined : arrowType(dtype) };
    }),
    globalAttrs: file.globalAttrs,
    warnings: file.warnings,
    notice: plan.notice,
    bytes: fileBytes(file),
    rowCount: plan.rows,
    read: (name) => file.read(name),
    rows: () => fileRows(file, plan),
    close: () => file.close(),
  };
}

/**
 * `source` decoded under `cf`: under `decode`, time bounds take their
 * coordinate's units and calendar, as xarray decodes them; a variable whose
 * mask would not come back the same is kept as stored, with one warning
 * line naming it (CLI README, "CF conventions").
 */
function withCf(source: StoredSource, cf: SourceCf): ImportSource {
  const bounds = cf.mode === "decode" ? boundsTimeAttrs(source.variables) : new Map<string, Attrs>();
  const variables = source.variables.map((v) => ({ ...v, attrs: bounds.get(v.name) ?? v.attrs }));
  const raw = variables.filter((v) => v.type !== undefined && keptRaw(emptyOf(v.type, v.attrs, v.name), cf, v.name));
  const rawWarnings = raw.map(
    (v) =>
      `${source.path}: variable "${v.name}" imported as stored (as --cf raw): its missing_value differs from its _FillValue, and a masked cell would export as one of them`,
  );
  return {
    path: source.path,
    variables: variables.map(({ name, dims, attrs }) => ({ name, dims, attrs })),
    globalAttrs: source.globalAttrs,
    warnings: [...source.warnings, ...rawWarnings],
    notice: source.notice,
    bytes: source.bytes,
    rowCount: source.rowCount,
    cf,
    typeAfterCf: (name) => {
      const v = variables.find((x) => x.name === name);
      return v?.type === undefined ? undefined : decodedType(v.type, v.attrs, cf, name);
    },
    read: async (name) => {
      const array = await source.read(name);
      return decodeFor(array.withAttrs(bounds.get(name) ?? array.attrs), cf, name, true);
    },
    rows: () => withArrayAttrs(source.rows(), bounds),
    close: () => source.close(),
  };
}

/** The rows with the arrays named in `attrs` given those attributes. */
async function* withArrayAttrs(
  rows: AsyncGenerator<NdRecordBatch>,
  attrs: ReadonlyMap<string, Attrs>,
): AsyncGenerator<NdRecordBatch> {
  for await (const row of rows) {
    if (attrs.size === 0) yield row;
    else
      yield row.withArrays(
        row.arrays().map(([name, array]) => [name, array.withAttrs(attrs.get(name) ?? array.attrs)] as const),
      );
  }
}
