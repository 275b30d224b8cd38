/**
 * `openZarr`: a lazy view of a Zarr v2 or v3 store, local or elsewhere (README "Reading"),
 * and the `ZarrStore` interface it returns (the `OpenedStore` of
 * opened-store.ts). Opening reads metadata only. It follows the reader
 * contract shared with `@lance-nd/netcdf` and lance-nd's datasets (nd-arrow
 * README "Windows").
 */
import type { ZarrStoreReader } from "./store-reader.js";
import type { Attr, Attrs, Dim, NdArray, NdRecordBatch, NdRowPlan, NdSource, Selection } from "@lance-nd/nd-arrow";
import { isNdArrowError, resolveSelection } from "@lance-nd/nd-arrow";
import { parseOptions } from "@lance-nd/casting/coded-error";
import { z } from "zod";
import { ROW_BYTES } from "@lance-nd/nd-arrow/internal";
import { attrFromJson, attrsFromJson } from "./attrs.js";
import { parseZarrJson } from "./json-text.js";
import { readNodes } from "./metadata.js";
import { OpenedStore } from "./opened-store.js";
import type { RowSteps } from "./row-grid.js";
import type { RequestOptions } from "./remote-requests.js";
import { isStoreUrl, openStoreFiles, storeName } from "./store-files.js";
import { isReadable, readableFiles, urlFiles } from "./store-sources.js";
import type { StoreFiles } from "./store-files.js";
import type { ZarrVariable } from "./zarr-variable.js";
import { ZarrError, zarrOptionsError } from "./zarr-error.js";

/** Options of {@link openZarr}. */
export interface OpenZarrOptions {
  /** The `id` global attribute; default: the name of the directory opened (the group's, with `group`). */
  id?: string;
  /**
   * A group nested in the store to open instead of the root, by its path
   * (`"surface"`, `"model/run1"`), as xarray's `open_zarr(..., group=)`:
   * its arrays are the variables, its attributes the global ones. The same
   * as opening the group's directory, except that a group named here (`""`
   * the root too) opens even when it holds no arrays, only subgroups (its
   * attributes alone; without the option that is `NotFound` listing them).
   * Default: the root.
   */
  group?: string;
  /**
   * The most bytes (uncompressed) of the largest variable a default row of
   * `chunks()` holds (README "Rows"); a storage block stays one row up to
   * eight times this, at most 8 MiB. Default: 1 MiB.
   */
  rowBytes?: number;
  /**
   * The names of the arrays of a store that cannot be listed (one at a
   * URL or a zarrita store) and has no consolidated metadata. Unused when
   * the store has consolidated metadata or is a local directory.
   */
  arrays?: readonly string[];
  /** How a store at a URL is asked for its keys: requests in flight, retries, a progress callback. */
  requests?: RequestOptions;
  /**
   * Credentials and endpoint of an `s3://`, `gs://` or `az://` store, by
   * lance-nd's storage option keys: `aws_access_key_id`,
   * `aws_secret_access_key`, `aws_session_token`, `region`, `endpoint`
   * (the `AWS_*` environment fills in the keys not given) for `s3://`; the
   * HMAC key as `aws_access_key_id` and `aws_secret_access_key` for `gs://`;
   * `azure_storage_account_name`, `azure_storage_account_key` (or
   * `azure_storage_sas_token`), `azure_storage_endpoint` (or the `AZURE_*`
   * environment) for `az://` (README "Stores elsewhere").
   */
  storage?: Readonly<Record<string, string>>;
  /**
   * Only these arrays, with the coordinate arrays of their dims and those
   * their `coordinates` attribute names, as xarray's `ds[["t2m", "u10"]]`.
   * Default: every array.
   */
  variables?: readonly string[];
  /**
   * Only this region of the store: `{ dim: [start, stop) }` (other dims
   * whole), as xarray's `isel(dim=slice(start, stop))`. The store then has
   * the region's dims, `read` selects inside the region, and `chunks()`
   * cuts it on the store's chunk grid (README "Stores elsewhere").
   */
  select?: Readonly<Record<string, readonly [number, number]>>;
}

const callback = <T>() => z.custom<T>((value) => typeof value === "function", "must be a function");
const openOptionsSchema = z.strictObject({
  id: z.string().min(1).optional(),
  group: z.string().optional(),
  rowBytes: z.number().int().positive().optional(),
  arrays: z.array(z.string().min(1)).readonly().optional(),
  variables: z.array(z.string().min(1)).readonly().optional(),
  storage: z.record(z.string(), z.string()).optional(),
  select: z.record(z.string(), z.tuple([z.number().int(), z.number().int()]).readonly()).optional(),
  requests: z
    .strictObject({
      maxRequests: z.number().int().positive().optional(),
      retries: z.number().int().nonnegative().optional(),
      retryDelayMs: z.number().nonnegative().optional(),
      onBytes: callback<(bytes: number) => void>().optional(),
      fetch: callback<(request: Request) => Promise<Response>>().optional(),
    })
    .optional(),
});

/** What {@link openZarr} opens: a local directory, a URL, or a zarrita store. */
export type ZarrSource = string | URL | ZarrStoreReader;

/**
 * Opens the Zarr store at `source`: a local directory, an `http(s)://`
 * URL (zarrita's FetchStore, with `options.requests`), an `s3://`,
 * `gs://` or `az://` URL (signed with `options.storage`), or any zarrita
 * store (`get`, `getRange`). A v2 or v3 group, with or without
 * consolidated metadata (a store that cannot be listed needs it, or
 * `options.arrays`), or a single array; with `options.group`,
 * the group at that path inside it. Reads metadata only. Only the opened
 * group's own arrays are variables; `store.groups` lists the groups nested
 * under it.
 *
 * Values are read as stored: CF decoding is `@lance-nd/cf`'s `cfDecode`, on
 * what `read` returns (nd-arrow README "Windows", the reader contract).
 *
 * Errors (`ZarrError`): `InvalidArgument` (options, a group path with `.`
 * or `..`), `NotFound` (no store, no such group, or a group with no arrays
 * but nested groups: the message lists their paths), `InvalidStore`
 * (metadata that is not Zarr, dims whose sizes disagree),
 * `UnsupportedType`, `UnsupportedAttribute` (each naming the array).
 *
 * @example
 * const store = await openZarr("sst.zarr");
 * store.dims;                                    // [{ name: "time", size: 4 }, ...]
 * const sst = await store.read("sst", { time: [0, 2] });
 * for await (const row of store.chunks()) row.globalAttr("chunk_offset");
 * const surface = await openZarr("nested.zarr", { group: "surface" }); // as xr.open_zarr(..., group="surface")
 * const remote = await openZarr("https://example.org/era5.zarr", { requests: { maxRequests: 8 } });
 */
export async function openZarr(source: ZarrSource, options: OpenZarrOptions = {}): Promise<ZarrStore> {
  const path = source instanceof URL ? source.href : isReadable(source) ? "zarr store" : source;
  if (typeof path !== "string" || path === "")
    throw new ZarrError("InvalidArgument", "the store path must be a non-empty string, a URL or a zarrita store");
  const parsed = parseOptions(openOptionsSchema, options, "openZarr", zarrOptionsError(path));
  const group = groupPath(parsed.group ?? "", path);
  const where = group === "" ? path : `${path}/${group}`;
  const root = isReadable(source)
    ? readableFiles(source, path, parsed.arrays)
    : isStoreUrl(path)
      ? urlFiles(path.replace(/\/+$/, ""), parsed.arrays, parsed.requests ?? {}, parsed.storage ?? {})
      : await openStoreFiles(path);
  const files = await openGroupFiles(root, path, group);
  const name = storeName(where);
  const nodes = await readNodes(files, where, name.replace(/\.zarr$/, "") || name);
  // A group named by the option opens even with no arrays (its attributes, for a tree of groups: README, "Groups").
  if (nodes.arrays.length === 0 && nodes.groups.length > 0 && parsed.group === undefined) {
    const paths = nodes.groups.map((g) => `${where}/${g}`);
    throw new ZarrError(
      "NotFound",
      `no arrays in ${group === "" ? "the root group" : `group "${group}"`}; its groups are ${paths.join(", ")} (give one of those paths instead)`,
      { path: where },
    );
  }
  const globalAttrs = new Map<string, Attr>(attrsFromJson(nodes.groupAttrs, undefined, { path: where }));
  const ownId = globalAttrs.get("id");
  globalAttrs.set("id", attrFromJson("id", parsed.id ?? name, undefined, { path: where }));
  const rowBytes = parsed.rowBytes ?? ROW_BYTES;
  const whole = new OpenedStore(where, files, nodes, globalAttrs, ownId, group, rowBytes);
  if (parsed.variables === undefined && parsed.select === undefined) return whole;
  const kept = keptArrays(whole, parsed.variables);
  const region = regionOf(whole, parsed.select ?? {});
  const arrays = nodes.arrays.filter((node) => kept.has(node.name));
  return new OpenedStore(where, files, { ...nodes, arrays }, globalAttrs, ownId, group, rowBytes, region);
}

/** The arrays `variables` keeps, with their coordinates (`VariableNotFound` for a name not there); all without it. */
function keptArrays(store: ZarrStore, variables: readonly string[] | undefined): Set<string> {
  if (variables === undefined) return new Set(store.variables.map((v) => v.name));
  const kept = new Set<string>();
  for (const name of variables) {
    const variable = store.variable(name);
    kept.add(name);
    for (const d of variable.dims) if (store.variables.some((v) => v.name === d.name)) kept.add(d.name);
    const coordinates = variable.attrs.get("coordinates")?.toJS();
    if (typeof coordinates === "string")
      for (const c of coordinates.split(/\s+/)) if (store.variables.some((v) => v.name === c)) kept.add(c);
  }
  return kept;
}

/** `select` as `[start, stop)` by dim, checked against the store's dims (`DimNotFound`, `InvalidArgument`). */
function regionOf(
  store: ZarrStore,
  select: Readonly<Record<string, readonly [number, number]>>,
): Map<string, readonly [number, number]> {
  try {
    const box = resolveSelection(select as Selection, store.dims, "the store");
    return new Map(box.filter((d) => Object.hasOwn(select, d.name)).map((d) => [d.name, [d.start, d.stop] as const]));
  } catch (cause) {
    if (!isNdArrowError(cause)) throw cause;
    throw new ZarrError(cause.code === "DimNotFound" ? "DimNotFound" : "InvalidArgument", `select: ${cause.detail}`, {
      path: store.path,
      cause,
    });
  }
}

/** `group` as a store path: `/`-separated names without empty, `.` or `..` parts (`InvalidArgument`). */
function groupPath(group: string, path: string): string {
  const parts = group.split("/").filter((part) => part !== "");
  if (parts.some((part) => part === "." || part === "..")) {
    throw new ZarrError("InvalidArgument", `group "${group}" is not a path inside the store (no "." or "..")`, {
      path,
    });
  }
  return parts.join("/");
}

/** True when `bytes` are a v3 `zarr.json` of a group; `InvalidStore` naming `key` when they are not JSON. */
function isV3Group(bytes: Uint8Array | undefined, key: string, path: string): boolean {
  if (bytes === undefined) return false;
  let parsed: unknown;
  try {
    parsed = parseZarrJson(new TextDecoder().decode(bytes));
  } catch (cause) {
    throw new ZarrError("InvalidStore", `"${key}" is not valid JSON (${(cause as Error).message})`, { path, cause });
  }
  return (parsed as { node_type?: unknown } | null)?.node_type === "group";
}

/** The files of the group at `group` inside the store `root` at `path`: `NotFound` listing the store's groups when none is there. */
async function openGroupFiles(root: StoreFiles, path: string, group: string): Promise<StoreFiles> {
  if (group === "") return root;
  const isGroup =
    (await root.read(`${group}/.zgroup`)) !== undefined ||
    isV3Group(await root.read(`${group}/zarr.json`), `${group}/zarr.json`, path);
  if (!isGroup) {
    const { groups } = await readNodes(root, path, storeName(path));
    throw new ZarrError(
      "NotFound",
      `no group "${group}" in the store (${groups.length === 0 ? "it has no groups" : `its groups: ${groups.join(", ")}`})`,
      { path },
    );
  }
  return root.at(group);
}

/** A store opened by {@link openZarr}: an nd-arrow `NdSource` (the reader contract) with Zarr's own details. */
export interface ZarrStore extends NdSource {
  /** The path of what was opened: the store path as given, plus `/<group>` with the `group` option. */
  readonly path: string;
  /** The group opened: its path inside the store (`"model/run1"`), `""` for the root or a store opened at a group's directory. */
  readonly group: string;
  /** The groups nested under the opened one, at any depth, by their paths relative to it; only `group` reads them. */
  readonly groups: readonly string[];
  /** Zarr format: 2 or 3. */
  readonly format: 2 | 3;
  /** True when the arrays were found through consolidated metadata. */
  readonly consolidated: boolean;
  /** Every dim of every array: the highest-rank array's dims, then others in order of appearance. */
  readonly dims: readonly Dim[];
  /** The arrays, by name. */
  readonly variables: readonly ZarrVariable[];
  /** The group's attributes plus `id` (the option's, else the directory's name, in place of the group's own). */
  readonly globalAttrs: Attrs;
  /** The group's own `id` attribute, which `globalAttrs` replaces; `undefined` when it has none. */
  readonly ownId: Attr | undefined;
  /** The variable called `name`; `VariableNotFound` naming the ones there are. */
  variable(name: string): ZarrVariable;
  /**
   * The values of array `name` inside `selection` (whole when omitted), as
   * an NdArray with the array's dims and stored attributes (nd-arrow README
   * "Windows": `[start, stop)` like a Python slice, an index drops the
   * dim). Reads only the chunks the selection touches.
   *
   * Errors: `VariableNotFound` (no such array), `DimNotFound` (a dim the
   * array does not have), `InvalidArgument` (an index outside its dim, a
   * value that is not an integer or a pair of them), `ReadFailed` (a chunk
   * that cannot be read or decoded, naming the array).
   */
  read(name: string, selection?: Selection): Promise<NdArray>;
  /** The row sizes `chunks(sizes)` uses along every dim (see README "Rows"); `DimNotFound` for a size along a dim the store does not have. */
  rowSteps(sizes?: Readonly<Record<string, number>>): RowSteps;
  rowCount(sizes?: Readonly<Record<string, number>>): number;
  /**
   * The rows within `budget` bytes a row (the `rowBytes` option's rule, with
   * this budget) or cut by `sizes`: {@link rowSteps}'s rows, their count,
   * and never a `cut` (a store's rows follow its own storage grid, README
   * "Rows").
   */
  rowPlan(budget: number, sizes?: Readonly<Record<string, number>>): NdRowPlan;
  /**
   * The store as rows (NdRecordBatch), one at a time, each with every array
   * cut to the row's window, the global attributes and `chunk_offset` (the
   * row's start along each grid dim). Rows follow {@link rowSteps}: the
   * storage grid by default, or `sizes` (`{ dim: size }`, other dims whole).
   * Reads the next row while the caller holds one: about two rows in memory.
   */
  chunks(sizes?: Readonly<Record<string, number>>): AsyncGenerator<NdRecordBatch>;
  /** Nothing to release for a local store; here for the shape the netCDF reader shares. */
  close(): Promise<void>;
}
