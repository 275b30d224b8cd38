/**
 * A Zarr store as an input of `lance-nd import` (CLI README, "Zarr"):
 * opened with @lance-nd/zarr (stored values; `--cf` decodes them in
 * import-source.ts, as for netCDF), cut into rows on the store's own chunk
 * grid (@lance-nd/zarr's default rows) or by `--chunk`.
 */
import { DataType } from "apache-arrow";
import { openZarr } from "@lance-nd/zarr";
import type { ZarrStore } from "@lance-nd/zarr";
import type { Attrs } from "@lance-nd/nd-arrow";
import type { StoredSource } from "./import-source.js";
import { asCliError, zarrCall } from "./zarr-errors.js";

/**
 * The store at `path` (or its `group`) as an import input, in rows of `rowBytes` on its chunk
 * grid unless `chunk` is given; a `ZarrError` (not a store, a bad `--chunk`) becomes a `CliError`.
 */
export async function openZarrSource(
  path: string,
  id: string,
  chunk: ReadonlyMap<string, number> | undefined,
  rowBytes: number,
  group?: string,
): Promise<StoredSource> {
  const store = await zarrCall(() => openZarr(path, { id, rowBytes, ...(group === undefined ? {} : { group }) }));
  const sizes = chunk === undefined ? undefined : Object.fromEntries(chunk);
  const rowCount = await zarrCall(async () => store.rowCount(sizes));
  return {
    path,
    variables: store.variables,
    globalAttrs: ownGlobals(store),
    warnings: [],
    notice: undefined,
    bytes: store.variables.reduce((n, v) => n + v.dims.reduce((e, d) => e * d.size, 1) * valueBytes(v.type), 0),
    rowCount,
    read: (name) => zarrCall(() => store.read(name)),
    rows: () => zarrRows(store.chunks(sizes)),
    close: () => store.close(),
  };
}

/** The store's global attributes as its group holds them: its own `id`, or none, in place of the reader's. */
function ownGlobals(store: ZarrStore): Attrs {
  const globals = new Map(store.globalAttrs);
  if (store.ownId === undefined) globals.delete("id");
  else globals.set("id", store.ownId);
  return globals;
}

async function* zarrRows<T>(rows: AsyncGenerator<T>): AsyncGenerator<T> {
  try {
    yield* rows;
  } catch (err) {
    throw asCliError(err);
  }
}

/** Bytes of one value, for progress (variable-width values count 8). */
export function valueBytes(type: DataType): number {
  if (DataType.isInt(type)) return type.bitWidth / 8;
  if (DataType.isFloat(type)) return 2 ** (type.precision + 1);
  if (DataType.isBool(type)) return 1;
  return 8;
}
