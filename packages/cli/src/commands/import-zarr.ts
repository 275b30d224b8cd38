/**
 * A Zarr store as an input of `lance-nd import` (CLI README, "Zarr"): a
 * local directory or an `http(s)://` URL, opened with @lance-nd/zarr
 * (stored values; `--cf` decodes them in import-source.ts, as for
 * netCDF), at the region and variables of `--isel`, `--sel` and
 * `--project` (import-selection.ts); its rows are the store's own
 * (`rowPlan`: on its chunk grid, or by `--chunk`).
 */
import { DataType } from "apache-arrow";
import { openZarr } from "@lance-nd/zarr";
import type { OpenZarrOptions, ZarrStore } from "@lance-nd/zarr";
import type { Attrs, NdSource } from "@lance-nd/nd-arrow";
import type { RemoteOptions } from "./import-fetch.js";
import { type ImportSelection, regionOf, selects } from "./import-selection.js";
import { zarrCall } from "./zarr-errors.js";
import { rangesOf, withoutDims } from "./import-dropped-dims.js";

/**
 * The store at `path` (or its `group`) as an import input, the part
 * `selection` takes, its global attributes as its group holds them; a
 * store at a URL read as `remote` says. A `ZarrError` (not a store)
 * becomes a `CliError`.
 */
export async function openZarrSource(
  path: string,
  id: string,
  selection: ImportSelection = {},
  remote: RemoteOptions = {},
  group?: string,
): Promise<NdSource> {
  const options: OpenZarrOptions = {
    id,
    requests: { maxRequests: remote.maxRequests, onBytes: remote.fetched?.onBytes },
    ...(remote.storage === undefined ? {} : { storage: remote.storage }),
    ...(group === undefined ? {} : { group }),
  };
  const { store, dropped } = await openSelected(path, options, selection);
  return withoutDims(
    {
      path: store.path,
      dims: store.dims,
      variables: store.variables,
      globalAttrs: ownGlobals(store),
      warnings: store.warnings,
      read: (name, within) => store.read(name, within),
      chunks: (sizes) => store.chunks(sizes),
      rowPlan: (budget, sizes) => store.rowPlan(budget, sizes),
      close: () => store.close(),
    },
    dropped,
  );
}

/**
 * The store opened at what `selection` takes, and the dims its indices
 * drop (opened one cell wide: import-dropped-dims.ts). A store that cannot be
 * listed is opened first with the projected arrays named, then with their
 * coordinates too (as their dims and `coordinates` attributes name them).
 */
async function openSelected(
  path: string,
  options: OpenZarrOptions,
  selection: ImportSelection,
): Promise<{ store: ZarrStore; dropped: ReadonlySet<string> }> {
  const { project } = selection;
  const open = (more: OpenZarrOptions = {}) => zarrCall(() => openZarr(path, { ...options, ...more }));
  let store = await open(project === undefined ? {} : { arrays: project });
  if (!selects(selection)) return { store, dropped: new Set() };
  let arrays = project;
  if (project !== undefined && !store.consolidated) {
    const named = new Set(project);
    for (const name of project) {
      const variable = await zarrCall(async () => store.variable(name));
      for (const d of variable.dims) named.add(d.name);
      const coordinates = variable.attrs.get("coordinates")?.toJS();
      if (typeof coordinates === "string") for (const c of coordinates.split(/\s+/)) if (c !== "") named.add(c);
    }
    arrays = [...named];
    store = await open({ arrays });
  }
  const { ranges, dropped } = rangesOf(await regionOf(store, selection));
  const selected = await open({
    ...(arrays === undefined ? {} : { arrays }),
    ...(project === undefined ? {} : { variables: project }),
    select: ranges,
  });
  return { store: selected, dropped };
}

/** The store's global attributes as its group holds them: its own `id`, or none, in place of the reader's. */
function ownGlobals(store: ZarrStore): Attrs {
  const globals = new Map(store.globalAttrs);
  if (store.ownId === undefined) globals.delete("id");
  else globals.set("id", store.ownId);
  return globals;
}

/** Bytes of one value, for progress (variable-width values count 8). */
export function valueBytes(type: DataType): number {
  if (DataType.isInt(type)) return type.bitWidth / 8;
  if (DataType.isFloat(type)) return 2 ** (type.precision + 1);
  if (DataType.isBool(type)) return 1;
  return 8;
}
