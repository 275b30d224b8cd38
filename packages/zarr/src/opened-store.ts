/**
 * The store `openZarr` returns: `read` and `chunks` read the chunks (or the
 * inner chunks of shards) their selections touch, through zarrita, as
 * stored (README "Reading").
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
import type { Attr, Attrs, Dim, NdRowPlan, SelectedDim, Selection } from "@lance-nd/nd-arrow";
import { maxBlockRowBytes } from "@lance-nd/nd-arrow/internal";
import * as zarr from "zarrita";
import { readAligned } from "./aligned-read.js";
import { withCheckedChunks } from "./checked-chunks.js";
import type { ArrayNode, StoreNodes } from "./metadata.js";
import type { ZarrStore } from "./open-zarr.js";
import { rowCount, rowSteps, rowWindows } from "./row-grid.js";
import type { GridVariable, RowPhase, RowSteps } from "./row-grid.js";
import type { StoreFiles } from "./store-files.js";
import { toArrowValues } from "./values.js";
import { arrayBytes, describe, itemBytes, storeDims, storedAttrs } from "./zarr-variable.js";
import type { ZarrVariable } from "./zarr-variable.js";
import { ZarrError, isZarrError } from "./zarr-error.js";

/** The {@link ZarrStore} that `openZarr` returns, over the metadata it read. */
export class OpenedStore implements ZarrStore {
  readonly path: string;
  readonly group: string;
  readonly groups: readonly string[];
  readonly format: 2 | 3;
  readonly consolidated: boolean;
  readonly dims: readonly Dim[];
  readonly variables: readonly ZarrVariable[];
  readonly globalAttrs: Attrs;
  readonly ownId: Attr | undefined;
  readonly warnings: readonly string[] = [];
  readonly #files: StoreFiles;
  readonly #nodes: ReadonlyMap<string, ArrayNode>;
  readonly #arrays = new Map<string, zarr.Array<zarr.DataType>>();
  readonly #storedAttrs: ReadonlyMap<string, Attrs>;
  readonly #rowBytes: number;
  /** The start, along each dim of the region opened, of the region in the store (README "Stores elsewhere", `select`). */
  readonly #origin: RowPhase;

  constructor(
    path: string,
    files: StoreFiles,
    nodes: StoreNodes,
    globalAttrs: Attrs,
    ownId: Attr | undefined,
    group: string,
    rowBytes: number,
    region: ReadonlyMap<string, readonly [number, number]> = new Map(),
  ) {
    this.path = path;
    this.#rowBytes = rowBytes;
    this.group = group;
    this.groups = nodes.groups;
    this.format = nodes.format;
    this.consolidated = nodes.consolidated;
    this.#files = files;
    this.#nodes = new Map(nodes.arrays.map((n) => [n.name, n]));
    this.#storedAttrs = new Map(nodes.arrays.map((node) => [node.name, storedAttrs(node, path)]));
    this.#origin = new Map([...region].map(([dim, [start]]) => [dim, start]));
    this.variables = nodes.arrays.map((node) => {
      const variable = describe(node, this.#storedAttrs.get(node.name)!);
      const dims = variable.dims.map((d) => {
        const window = region.get(d.name);
        return window === undefined ? d : { name: d.name, size: window[1] - window[0] };
      });
      return { ...variable, dims, bytes: arrayBytes(variable.type, dims) };
    });
    this.dims = storeDims(this.variables, path);
    this.globalAttrs = globalAttrs;
    this.ownId = ownId;
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
    const zarrSelection = box.map((d) => {
      const origin = this.#origin.get(d.name) ?? 0;
      return d.drop ? origin + d.start : zarr.slice(origin + d.start, origin + d.stop);
    });
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

  rowSteps(sizes?: Readonly<Record<string, number>>, budget = this.#rowBytes): RowSteps {
    const variables: GridVariable[] = this.variables.map((v) => ({
      name: v.name,
      dims: v.dims,
      itemBytes: itemBytes(v.type),
      block: shardRowBlock(v.shards, itemBytes(v.type), budget) ?? v.chunks,
    }));
    return rowSteps(this.dims, variables, sizes, this.path, budget);
  }

  rowCount(sizes?: Readonly<Record<string, number>>): number {
    return rowCount(this.dims, this.rowSteps(sizes), this.#origin);
  }

  rowPlan(budget: number, sizes?: Readonly<Record<string, number>>): NdRowPlan {
    const steps = this.rowSteps(sizes, budget);
    return { count: rowCount(this.dims, steps, this.#origin), cut: undefined, rows: () => this.#rows(steps) };
  }

  chunks(sizes?: Readonly<Record<string, number>>): AsyncGenerator<NdRecordBatch> {
    return this.#rows(this.rowSteps(sizes));
  }

  /** The rows `steps` cut the store into, reading the next while the caller holds one. */
  async *#rows(steps: RowSteps): AsyncGenerator<NdRecordBatch> {
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
    for (const { window, offset } of rowWindows(this.dims, steps, this.#origin)) {
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

/**
 * A shard as a row's storage block, unless it is over what a block row may
 * hold (8 MiB by default): then rows cut on its inner chunks, so no shard is decoded twice.
 */
function shardRowBlock(
  shards: readonly number[] | undefined,
  bytesPerValue: number,
  rowBytes: number,
): readonly number[] | undefined {
  if (shards === undefined) return undefined;
  return shards.reduce((n, s) => n * s, bytesPerValue) <= maxBlockRowBytes(rowBytes) ? shards : undefined;
}
