/**
 * `openZarr`: a lazy view of a local Zarr v2 or v3 store (README "Reading").
 * Opening reads metadata only; `read` and `chunks` read the chunks (or the
 * inner chunks of shards) their windows touch, through zarrita.
 */
import {
  CHUNK_OFFSET,
  NdArray,
  NdRecordBatch,
  attr,
  isNdArrowError,
  resolveSelection,
  toVector,
} from "@lance-nd/nd-arrow";
import type { Attr, Attrs, Dim, SelectedDim, Selection } from "@lance-nd/nd-arrow";
import { MAX_BLOCK_ROW_BYTES } from "@lance-nd/nd-arrow/internal";
import * as zarr from "zarrita";
import { z } from "zod";
import { readAligned } from "./aligned-read.js";
import { attrFromJson, attrsFromJson } from "./attrs.js";
import { withCheckedChunks } from "./checked-chunks.js";
import { parseZarrJson } from "./json-text.js";
import { readNodes } from "./metadata.js";
import type { ArrayNode, StoreNodes } from "./metadata.js";
import { rowCount, rowSteps, rowWindows } from "./row-grid.js";
import type { GridVariable, RowSteps } from "./row-grid.js";
import { parseOptions } from "./options.js";
import { openStoreFiles, storeName } from "./store-files.js";
import type { StoreFiles } from "./store-files.js";
import { toArrowValues } from "./values.js";
import { describe, itemBytes, storeDims, storedAttrs } from "./zarr-variable.js";
import type { ZarrVariable } from "./zarr-variable.js";
import { ZarrError, isZarrError } from "./zarr-error.js";

/**
 * A window: `[start, stop)` along a dim, or an index (which drops the dim). Unnamed dims are whole.
 *
 * @deprecated Use `Selection` of `@lance-nd/nd-arrow` (also exported here), the same type.
 */
export type ZarrWindow = Selection;

/** Options of {@link openZarr}. */
export interface OpenZarrOptions {
  /** The `id` global attribute; default: the name of the directory opened (the group's, with `group`). */
  id?: string;
  /**
   * A group nested in the store to open instead of the root, by its path
   * (`"surface"`, `"model/run1"`), as xarray's `open_zarr(..., group=)`:
   * its arrays are the variables, its attributes the global ones. The same
   * as opening the group's directory. Default: the root.
   */
  group?: string;
}

const openOptionsSchema = z.strictObject({
  id: z.string().min(1).optional(),
  group: z.string().optional(),
});

/**
 * Opens the Zarr store at `path` (a directory): a v2 or v3 group, with or
 * without consolidated metadata, or a single array; with `options.group`,
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
 */
export async function openZarr(path: string, options: OpenZarrOptions = {}): Promise<ZarrStore> {
  if (typeof path !== "string" || path === "")
    throw new ZarrError("InvalidArgument", "the store path must be a non-empty string");
  const parsed = parseOptions(openOptionsSchema, options, path);
  const group = groupPath(parsed.group ?? "", path);
  const where = group === "" ? path : `${path}/${group}`;
  const files = await openGroupFiles(path, group);
  const name = storeName(where);
  const nodes = await readNodes(files, where, name.replace(/\.zarr$/, "") || name);
  if (nodes.arrays.length === 0 && nodes.groups.length > 0) {
    const paths = nodes.groups.map((g) => `${where}/${g}`);
    throw new ZarrError(
      "NotFound",
      `no arrays in ${group === "" ? "the root group" : `group "${group}"`}; its groups are ${paths.join(", ")} (give one of those paths instead)`,
      { path: where },
    );
  }
  const globalAttrs = new Map<string, Attr>(attrsFromJson(nodes.groupAttrs, undefined, { path: where }));
  globalAttrs.set("id", attrFromJson("id", parsed.id ?? name, undefined, { path: where }));
  return new OpenedStore(where, files, nodes, globalAttrs, group);
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
    throw new ZarrError("InvalidStore", `"${key}" is not valid JSON`, { path, cause });
  }
  return (parsed as { node_type?: unknown } | null)?.node_type === "group";
}

/** The files of the group at `group` inside the store at `path`: `NotFound` listing the store's groups when none is there. */
async function openGroupFiles(path: string, group: string): Promise<StoreFiles> {
  const root = await openStoreFiles(path);
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
  return openStoreFiles(`${path}/${group}`);
}

/** A store opened by {@link openZarr}. */
export interface ZarrStore {
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
  /** The group's attributes plus `id`. */
  readonly globalAttrs: Attrs;
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

/** The {@link ZarrStore} that {@link openZarr} returns. */
class OpenedStore implements ZarrStore {
  readonly path: string;
  readonly group: string;
  readonly groups: readonly string[];
  readonly format: 2 | 3;
  readonly consolidated: boolean;
  readonly dims: readonly Dim[];
  readonly variables: readonly ZarrVariable[];
  readonly globalAttrs: Attrs;
  readonly #files: StoreFiles;
  readonly #nodes: ReadonlyMap<string, ArrayNode>;
  readonly #arrays = new Map<string, zarr.Array<zarr.DataType>>();
  readonly #storedAttrs: ReadonlyMap<string, Attrs>;

  constructor(path: string, files: StoreFiles, nodes: StoreNodes, globalAttrs: Attrs, group: string) {
    this.path = path;
    this.group = group;
    this.groups = nodes.groups;
    this.format = nodes.format;
    this.consolidated = nodes.consolidated;
    this.#files = files;
    this.#nodes = new Map(nodes.arrays.map((n) => [n.name, n]));
    this.#storedAttrs = new Map(nodes.arrays.map((node) => [node.name, storedAttrs(node, path)]));
    this.variables = nodes.arrays.map((node) => describe(node, this.#storedAttrs.get(node.name)!));
    this.dims = storeDims(this.variables, path);
    this.globalAttrs = globalAttrs;
  }

  variable(name: string): ZarrVariable {
    const found = this.variables.find((v) => v.name === name);
    if (found === undefined) {
      throw new ZarrError(
        "VariableNotFound",
        `no array "${name}" (the store has [${this.variables.map((v) => v.name).join(", ")}])`,
        { path: this.path },
      );
    }
    return found;
  }

  async read(name: string, selection: Selection = {}): Promise<NdArray> {
    const variable = this.variable(name);
    const box = this.#selected(name, variable, selection);
    const zarrSelection = box.map((d) => (d.drop ? d.start : zarr.slice(d.start, d.stop)));
    const dims = box.filter((d) => !d.drop).map((d) => ({ name: d.name, size: d.stop - d.start }));
    const node = this.#nodes.get(name)!;
    const values = await this.#get(node, zarrSelection, dims);
    return new NdArray(values, dims, this.#storedAttrs.get(name));
  }

  /** What `selection` keeps of the array's dims; its problems as `ZarrError`s of the same code. */
  #selected(name: string, variable: ZarrVariable, selection: Selection): SelectedDim[] {
    try {
      return resolveSelection(selection, variable.dims, `array "${name}"`);
    } catch (cause) {
      if (!isNdArrowError(cause)) throw cause;
      const code = cause.code === "DimNotFound" ? "DimNotFound" : "InvalidArgument";
      throw new ZarrError(code, cause.detail, { path: this.path, variable: name, cause });
    }
  }

  rowSteps(sizes?: Readonly<Record<string, number>>): RowSteps {
    const variables: GridVariable[] = this.variables.map((v) => ({
      name: v.name,
      dims: v.dims,
      itemBytes: itemBytes(v.type),
      block: shardRowBlock(v.shards, itemBytes(v.type)) ?? v.chunks,
    }));
    return rowSteps(this.dims, variables, sizes, this.path);
  }

  rowCount(sizes?: Readonly<Record<string, number>>): number {
    return rowCount(this.dims, this.rowSteps(sizes));
  }

  async *chunks(sizes?: Readonly<Record<string, number>>): AsyncGenerator<NdRecordBatch> {
    const steps = this.rowSteps(sizes);
    const uncut = new Map<string, Promise<NdArray>>();
    const isUncut = (v: ZarrVariable) => v.dims.every((d) => steps.get(d.name)! >= d.size);
    const readRow = async (window: ReadonlyMap<string, readonly [number, number]>, offset: readonly number[]) => {
      const arrays = await Promise.all(
        this.variables.map((v) => {
          if (!isUncut(v))
            return this.read(v.name, Object.fromEntries(v.dims.map((d) => [d.name, window.get(d.name)!])));
          if (!uncut.has(v.name)) uncut.set(v.name, this.read(v.name));
          return uncut.get(v.name)!;
        }),
      );
      const batch = new NdRecordBatch(
        this.variables.map((v, i) => [v.name, arrays[i]!] as const),
        this.globalAttrs,
      );
      const start = new Map(this.dims.map((d, i) => [d.name, offset[i]!]));
      const chunkOffset = attr.uint32(batch.grid().map((d) => start.get(d.name)!));
      return batch.withGlobalAttrs(new Map([...this.globalAttrs, [CHUNK_OFFSET, chunkOffset]]));
    };
    let next: Promise<NdRecordBatch> | undefined;
    for (const { window, offset } of rowWindows(this.dims, steps)) {
      const current = readRow(window, offset);
      current.catch(() => undefined);
      if (next !== undefined) yield await next;
      next = current;
    }
    if (next !== undefined) yield await next;
  }

  async close(): Promise<void> {}

  async #get(node: ArrayNode, selection: (number | zarr.Slice)[], dims: Dim[]) {
    const where = { path: this.path, variable: node.name };
    try {
      let array = this.#arrays.get(node.name);
      if (array === undefined) {
        const location = zarr.root(this.#files.zarrita).resolve(node.key || "/");
        array = withCheckedChunks(new zarr.Array(this.#files.zarrita, location.path, node.zarrita), {
          path: this.path,
          node,
        });
        this.#arrays.set(node.name, array);
      }
      const size = dims.reduce((n, d) => n * d.size, 1);
      if (size === 0) return toVector([], node.type.arrow);
      if (node.type.kind === "plain" && selection.every((s) => typeof s !== "number")) {
        const window = (selection as zarr.Slice[]).map((s) => [s.start ?? 0, s.stop ?? 0] as const);
        const aligned = await readAligned(array, window);
        if (aligned !== undefined)
          return toArrowValues({ data: aligned as never, shape: [aligned.length], stride: [1] }, node.type);
      }
      const chunk = await zarr.get(array, selection);
      if (typeof chunk !== "object" || chunk === null || !("data" in chunk)) {
        return toArrowValues({ data: [chunk] as never, shape: [], stride: [] }, node.type);
      }
      return toArrowValues(chunk, node.type);
    } catch (cause) {
      if (isZarrError(cause)) throw cause;
      throw new ZarrError("ReadFailed", `cannot read: ${cause instanceof Error ? cause.message : String(cause)}`, {
        ...where,
        cause,
      });
    }
  }
}

/** A shard as a row's storage block, unless it is over 8 MiB: then rows cut on its inner chunks, so no shard is decoded twice. */
function shardRowBlock(shards: readonly number[] | undefined, bytesPerValue: number): readonly number[] | undefined {
  if (shards === undefined) return undefined;
  return shards.reduce((n, s) => n * s, bytesPerValue) <= MAX_BLOCK_ROW_BYTES ? shards : undefined;
}
