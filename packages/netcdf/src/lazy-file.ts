/**
 * The file `openNetcdf` returns: the header read once; values read per
 * variable and selection (a hyperslab for netCDF-4, a byte range for
 * netCDF-3), and `chunks` yielding the file as rows one at a time.
 */
import { Utf8, Vector, makeData } from "apache-arrow";
import { NdArray, attr } from "@lance-nd/nd-arrow";
import type { Attrs, Dim, NdRecordBatch, NdRowPlan, Selection } from "@lance-nd/nd-arrow";
import { arrowType } from "@lance-nd/cf";
import { chunkRows, selectedDims } from "./chunk-rows.js";
import { toAttrs } from "./attrs.js";
import { binaryFromCharRows } from "./byte-text.js";
import { FILTERS } from "./hdf5-filters.js";
import { NetcdfError } from "./netcdf-error.js";
import { ncDtype } from "./nc-dtype.js";
import { netcdfRowPlan } from "./row-plan.js";
import type { NetcdfChunksOptions, NetcdfFile, NetcdfVariable } from "./open.js";
import { NotUtf8, notUtf8Message, utf8FromCharRows, utf8FromStrings } from "./raw.js";
import type { NcType, NetcdfCompression, NetcdfDim, RawFile, RawVariable, Utf8Values } from "./raw.js";
import {
  CHAR_DIM_ATTR,
  CHAR_DIM_SIZE_ATTR,
  CHUNK_SIZES_ATTR,
  DEFLATE_LEVEL_ATTR,
  FILTER_ATTR,
  SHUFFLE_ATTR,
  DIM_ORDER_ATTR,
  VARIABLE_ORDER_ATTR,
  FORMAT_ATTR,
  UNLIMITED_ATTR,
  UNUSED_DIMS_ATTR,
  UNUSED_DIM_SIZES_ATTR,
} from "@lance-nd/cf";

const WIDTH: Record<NcType, number> = {
  byte: 1,
  ubyte: 1,
  char: 1,
  short: 2,
  ushort: 2,
  int: 4,
  uint: 4,
  float: 4,
  int64: 8,
  uint64: 8,
  double: 8,
  string: 16,
};

/** A {@link NetcdfFile} over a parsed header (`RawFile`); `storage` adds the storage attributes. */
export class LazyFile implements NetcdfFile {
  readonly path: string;
  readonly format: NetcdfFile["format"];
  readonly dims: readonly NetcdfDim[];
  readonly variables: readonly NetcdfVariable[];
  readonly globalAttrs: Attrs;
  readonly groups: readonly string[];
  readonly warnings: readonly string[];
  private readonly raw: RawFile;
  private readonly byName: Map<string, { raw: RawVariable; info: NetcdfVariable }>;
  private closing: Promise<void> | undefined;
  /** The char variables read as byte strings (their values are not UTF-8: `byteTextVariables`). */
  private readonly byteText: ReadonlySet<string>;

  constructor(path: string, raw: RawFile, storage: boolean, byteText: ReadonlySet<string> = new Set()) {
    this.path = path;
    this.raw = raw;
    this.byteText = byteText;
    this.format = raw.format;
    this.dims = raw.dims;
    this.warnings = raw.warnings;
    this.groups = raw.groups ?? [];
    this.byName = new Map(raw.variables.map((v) => [v.name, { raw: v, info: describe(v, storage) }]));
    this.variables = [...this.byName.values()].map((v) => v.info);
    const globals = toAttrs(raw.globalAttrs, storage);
    const unlimited = raw.dims.filter((d) => d.unlimited).map((d) => d.name);
    if (storage && unlimited.length > 0)
      globals.set(UNLIMITED_ATTR, unlimited.length === 1 ? attr.utf8(unlimited[0]!) : attr.utf8(unlimited));
    if (storage && raw.dims.length > 0) globals.set(DIM_ORDER_ATTR, attr.utf8(raw.dims.map((d) => d.name)));
    if (storage && this.variables.length > 0)
      globals.set(VARIABLE_ORDER_ATTR, attr.utf8(this.variables.map((v) => v.name)));
    const used = new Set(raw.variables.flatMap((v) => v.dims.map((d) => d.name)));
    const unused = raw.dims.filter((d) => !used.has(d.name));
    if (storage && unused.length > 0) {
      globals.set(UNUSED_DIMS_ATTR, attr.utf8(unused.map((d) => d.name)));
      globals.set(UNUSED_DIM_SIZES_ATTR, attr.int32(Int32Array.from(unused, (d) => d.size)));
    }
    if (storage) globals.set(FORMAT_ATTR, attr.utf8(raw.format));
    this.globalAttrs = globals;
  }

  variable(name: string): NetcdfVariable {
    return this.entry(name).info;
  }

  private entry(name: string): { raw: RawVariable; info: NetcdfVariable } {
    const found = this.byName.get(name);
    if (found === undefined) {
      throw new NetcdfError(
        "VariableNotFound",
        `${this.path}: no variable "${name}" in the file (it has ${[...this.byName.keys()].join(", ")})`,
        { path: this.path, variable: name },
      );
    }
    return found;
  }

  async read(name: string, selection: Selection = {}): Promise<NdArray> {
    const { raw, info } = this.entry(name);
    const box = selectedDims(this.path, info.dims, selection, name);
    // A char variable's last stored dim (the string length) is read whole.
    const start = raw.dims.map((_, i) => box[i]?.start ?? 0);
    const count = raw.dims.map((d, i) => (i < box.length ? box[i]!.stop - box[i]!.start : d.size));
    const dims = box.map((d) => ({ name: d.name, size: d.stop - d.start }));
    const values = await this.raw.readSlab(raw, start, count);
    const rows = dims.reduce((n, d) => n * d.size, 1);
    let vector: Parameters<typeof NdArray.from>[0];
    if ("chars" in values) {
      const width = raw.dims.length === 0 ? 1 : raw.dims.at(-1)!.size;
      vector = this.byteText.has(name)
        ? binaryFromCharRows(values.chars, rows, width)
        : utf8Vector(this.charRows(name, values.chars, rows, width, start, dims));
    } else if ("strings" in values) vector = utf8Vector(utf8FromStrings(values.strings));
    else vector = values;
    try {
      return NdArray.from(vector, { dims: dims.filter((_, i) => !box[i]!.drop), attrs: info.attrs });
    } catch (cause) {
      throw new NetcdfError(
        "InvalidFile",
        `${this.path}: variable "${name}" does not fit the nd-arrow model (${(cause as Error).message})`,
        { path: this.path, variable: name, cause },
      );
    }
  }

  /** Char rows as strings, or `UnsupportedText` naming the variable and the offset of the first byte that is not UTF-8. */
  private charRows(
    name: string,
    chars: Uint8Array,
    rows: number,
    width: number,
    start: readonly number[],
    dims: readonly Dim[],
  ): Utf8Values {
    try {
      return utf8FromCharRows(chars, rows, width);
    } catch (err) {
      if (!(err instanceof NotUtf8)) throw err;
      // The row's index in the whole variable: its place in the window, moved by the window's start.
      const sizes = this.entry(name).info.dims.map((d) => d.size);
      let row = 0;
      for (let d = 0, rest = err.index; d < dims.length; d++) {
        const inner = dims.slice(d + 1).reduce((n, x) => n * x.size, 1);
        row = row * sizes[d]! + start[d]! + Math.floor(rest / inner);
        rest %= inner;
      }
      const at = `offset ${row * width + err.byte} of its values`;
      throw new NetcdfError("UnsupportedText", `${this.path}: ${notUtf8Message(`variable "${name}"`, err.value, at)}`, {
        path: this.path,
        variable: name,
        cause: err,
      });
    }
  }

  rowPlan(budget: number, sizes?: Readonly<Record<string, number>>): NdRowPlan {
    return netcdfRowPlan(this, budget, sizes);
  }

  chunks(sizes: Readonly<Record<string, number>>, options: NetcdfChunksOptions = {}): AsyncGenerator<NdRecordBatch> {
    return chunkRows(this, sizes, options);
  }

  /** Closes the file; closing again does nothing. */
  close(): Promise<void> {
    this.closing ??= this.raw.close();
    return this.closing;
  }
}

/** `_Filter` as `ncdump -s` shows it: `"<id>,<level>"` (zstd `"32015,3"`), or `"<id>"`. */
function filterAttr(c: NetcdfCompression): string {
  const known = Object.entries(FILTERS).find(([, name]) => name === c.codec)?.[0];
  const id = known ?? c.codec.replace(/^filter-/, "");
  return c.level === undefined ? id : `${id},${c.level}`;
}

function describe(v: RawVariable, storage: boolean): NetcdfVariable {
  const isChar = v.type === "char";
  const dims = isChar ? v.dims.slice(0, -1) : v.dims;
  const attrs = toAttrs(v.attrs, storage);
  if (storage) {
    if (v.chunking !== null) attrs.set(CHUNK_SIZES_ATTR, attr.int32(Int32Array.from(v.chunking)));
    const c = v.compression;
    if (c !== null) {
      if (c.codec === "deflate") attrs.set(DEFLATE_LEVEL_ATTR, attr.int32(c.level ?? 4));
      else if (c.codec !== "none") attrs.set(FILTER_ATTR, attr.utf8(filterAttr(c)));
      if (c.shuffle) attrs.set(SHUFFLE_ATTR, attr.utf8("true"));
    }
    if (isChar && v.dims.length > 0) {
      attrs.set(CHAR_DIM_ATTR, attr.utf8(v.dims.at(-1)!.name));
      attrs.set(CHAR_DIM_SIZE_ATTR, attr.int32(v.dims.at(-1)!.size));
    }
    // A scalar char variable holds one char and has no char dim.
    if (isChar && v.dims.length === 0) attrs.set(CHAR_DIM_SIZE_ATTR, attr.int32(1));
  }
  const bytes = v.dims.reduce((n, d) => n * d.size, WIDTH[v.type]);
  const dtype = ncDtype(v.type);
  return {
    name: v.name,
    type: v.type,
    dims: dims.map((d) => ({ name: d.name, size: d.size })),
    attrs,
    chunking: v.chunking,
    compression: v.compression,
    bytes,
    valueType: dtype === undefined ? undefined : arrowType(dtype),
  };
}

/** UTF-8 bytes with offsets as an Arrow Utf8 vector, no copy. */
function utf8Vector(values: Utf8Values): Vector {
  return new Vector([
    makeData({
      type: new Utf8(),
      length: values.offsets.length - 1,
      valueOffsets: values.offsets,
      data: values.bytes,
      ...(values.nulls === undefined ? {} : { nullBitmap: values.nulls.bitmap, nullCount: values.nulls.count }),
    }),
  ]);
}
