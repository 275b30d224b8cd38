/**
 * One input of `lance-nd import`, whatever its format: a netCDF file or a
 * Zarr store, with what the import pipeline needs before writing (its
 * variables and types after `--cf`, its size and row count) and its rows.
 * Both readers give an nd-arrow `NdSource` of stored values with its row
 * plan (nd-arrow README "The reader contract"); `--cf` decodes them here
 * and in `applyPlan`, one path for both formats.
 */
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import type { DataType } from "apache-arrow";
import type { Attrs, Dim, NdArray, NdRecordBatch, NdRowPlan, NdSource } from "@lance-nd/nd-arrow";
import { boundsTimeAttrs, isCfError } from "@lance-nd/cf";
import type { CfMode } from "lance-nd/internal";
import type { SourceCf } from "./import-plan.js";
import { decodeFor, decodedType, emptyOf, keptRaw } from "./import-plan.js";
import { DEFAULT_ROW_BYTES, rowNotice } from "./import-rows.js";
import { openNetcdfSource } from "./import-netcdf.js";
import { openZarrSource } from "./import-zarr.js";
import { type RemoteOptions, isUrl } from "./import-fetch.js";
import type { ImportSelection } from "./import-selection.js";
import { asCliError, zarrCall } from "./zarr-errors.js";

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

/** True when `path` is a directory holding a Zarr group or array (`zarr.json`, `.zgroup` or `.zarray`). */
export function isZarrStore(path: string): boolean {
  return (
    existsSync(path) &&
    statSync(path).isDirectory() &&
    ["zarr.json", ".zgroup", ".zarray"].some((name) => existsSync(join(path, name)))
  );
}

/** True when `path` is a Zarr store: a local directory, or a URL whose path does not end in `.nc` or `.nc4`. */
function isZarrSource(path: string): boolean {
  return isUrl(path) ? !/\.nc4?$/i.test(new URL(path).pathname) : isZarrStore(path);
}

/**
 * Opens `path` (a Zarr store, local or at a URL, or a netCDF file), or its
 * `group`, the part `selection` takes (import-selection.ts), cut into
 * rows by `chunk` or its default row plan within `rowBytes` a row, decoded
 * under `mode`; a source at a URL is read as `remote` says.
 */
export async function openSource(
  path: string,
  id: string,
  mode: CfMode,
  chunk: ReadonlyMap<string, number> | undefined,
  rowBytes = DEFAULT_ROW_BYTES,
  selection: ImportSelection = {},
  remote: RemoteOptions = {},
  group?: string,
): Promise<ImportSource> {
  const zarr = isZarrSource(path);
  const source = zarr
    ? await openZarrSource(path, id, selection, remote, group)
    : await openNetcdfSource(path, chunk, selection, remote, group);
  let plan: NdRowPlan;
  try {
    plan = await zarrCall(async () =>
      source.rowPlan(rowBytes, chunk === undefined ? undefined : Object.fromEntries(chunk)),
    );
  } catch (err) {
    await source.close();
    throw err;
  }
  const stored: StoredInput = { path, source, plan, notice: rowNotice(source.path, plan, rowBytes) };
  const cf = { mode, validRange: !zarr && mode === "mask-range" };
  if (mode !== "decode") return withCf(stored, cf);
  const rawTimes = await undecodableTimes(stored, cf);
  const kept = withCf(stored, { ...cf, rawTimes: new Set(rawTimes.keys()) });
  return { ...kept, warnings: [...kept.warnings, ...rawTimes.values()] };
}

/** An opened input before `--cf`: the path as given, the reader's source, its row plan and the notice of a cut. */
interface StoredInput {
  readonly path: string;
  readonly source: NdSource;
  readonly plan: NdRowPlan;
  readonly notice: string | undefined;
}

/** The most values of a 1-D time variable read to find whether `--cf decode` can decode them. */
const TIME_PROBE_VALUES = 2 ** 20;

/**
 * The time variables of `source` that `--cf decode` cannot decode, each with
 * its warning line: units no timestamp holds (`months since` with
 * `360_day`), or, for a 1-D variable (a time coordinate, up to
 * {@link TIME_PROBE_VALUES} values), a value past the 64-bit timestamp range
 * (a proleptic_gregorian date outside 1677-2262, a far float32 time). They
 * are kept as CF numbers, as `--cf mask` keeps them (CLI README, "CF
 * conventions"); the other variables decode.
 */
async function undecodableTimes({ path, source }: StoredInput, cf: SourceCf): Promise<Map<string, string>> {
  const raw = new Map<string, string>();
  for (const v of source.variables) {
    const units = v.attrs.get("units")?.toJS();
    if (v.valueType === undefined || typeof units !== "string" || !/\bsince\b/i.test(units)) continue;
    try {
      decodeFor(emptyOf(v.valueType, v.attrs, v.name), cf, v.name, false);
      if (v.dims.length === 1 && v.dims[0]!.size <= TIME_PROBE_VALUES)
        decodeFor(await zarrCall(() => source.read(v.name)), cf, v.name, true);
    } catch (err) {
      // decodeFor gives a refusal another --cf mode avoids as a CliError with the CfError as its cause.
      const cause = isCfError(err) ? err : (err as { cause?: unknown }).cause;
      if (!isCfError(cause, "OutOfRange", "InvalidUnits", "UnsupportedCalendar")) throw err;
      const why = cause.message.replace(/^variable "[^"]*"(, attribute \w+)?: /, "");
      raw.set(v.name, `${path}: variable "${v.name}" kept as CF numbers (as --cf mask): ${why}`);
    }
  }
  return raw;
}

/**
 * `source` decoded under `cf`: under `decode`, time bounds take their
 * coordinate's units and calendar, as xarray decodes them; a variable whose
 * mask would not come back the same is kept as stored, with one warning
 * line naming it (CLI README, "CF conventions").
 */
function withCf({ path, source, plan, notice }: StoredInput, cf: SourceCf): ImportSource {
  const bounds = cf.mode === "decode" ? boundsTimeAttrs(source.variables) : new Map<string, Attrs>();
  const variables = source.variables.map((v) => ({ ...v, attrs: bounds.get(v.name) ?? v.attrs }));
  const raw = variables.filter(
    (v) =>
      v.valueType !== undefined &&
      !cf.rawTimes?.has(v.name) &&
      keptRaw(emptyOf(v.valueType, v.attrs, v.name), cf, v.name),
  );
  const rawWarnings = raw.map(
    (v) =>
      `${path}: variable "${v.name}" imported as stored (as --cf raw): its missing_value differs from its _FillValue, and a masked cell would export as one of them`,
  );
  return {
    path,
    variables: variables.map(({ name, dims, attrs }) => ({ name, dims, attrs })),
    globalAttrs: source.globalAttrs,
    warnings: [...source.warnings, ...rawWarnings],
    notice,
    bytes: source.variables.reduce((n, v) => n + v.bytes, 0),
    rowCount: plan.count,
    cf,
    typeAfterCf: (name) => {
      const v = variables.find((x) => x.name === name);
      return v?.valueType === undefined ? undefined : decodedType(v.valueType, v.attrs, cf, name);
    },
    read: async (name) => {
      const array = await zarrCall(() => source.read(name));
      return decodeFor(array.withAttrs(bounds.get(name) ?? array.attrs), cf, name, true);
    },
    rows: () => withArrayAttrs(plan.rows(), bounds),
    close: () => source.close(),
  };
}

/** `rows`, a `ZarrError` among them as a `CliError`. */
async function* cliRows(rows: AsyncGenerator<NdRecordBatch>): AsyncGenerator<NdRecordBatch> {
  try {
    yield* rows;
  } catch (err) {
    throw asCliError(err);
  }
}

/** The rows with the arrays named in `attrs` given those attributes. */
async function* withArrayAttrs(
  rows: AsyncGenerator<NdRecordBatch>,
  attrs: ReadonlyMap<string, Attrs>,
): AsyncGenerator<NdRecordBatch> {
  for await (const row of cliRows(rows)) {
    if (attrs.size === 0) yield row;
    else
      yield row.withArrays(
        row.arrays().map(([name, array]) => [name, array.withAttrs(attrs.get(name) ?? array.attrs)] as const),
      );
  }
}
