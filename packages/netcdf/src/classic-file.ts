/**
 * netCDF-3 files (classic and 64-bit offset) read by byte ranges: the header
 * first (growing the read until it fits), then each slab from its offset, so
 * a row of a many-GiB file costs about its own size. netcdfjs is not used: it
 * wants the whole file in memory.
 */
import { NeedMoreBytes, WIDTH, fromBigEndian, parseClassicHeader } from "./classic-header.js";
import type { ClassicHeader, ClassicVariable } from "./classic-header.js";
import { NetcdfError } from "./netcdf-error.js";
import type { NetcdfDim, RawFile, RawVariable, SlabValues } from "./raw.js";
import type { ByteSource } from "./source.js";

interface ClassicRawVariable extends RawVariable {
  readonly header: ClassicVariable;
  readonly record: boolean;
}

/** Opens a netCDF-3 file from its source; `InvalidFile` for a damaged or truncated header. */
export async function openClassic(source: ByteSource): Promise<RawFile> {
  const { label } = source;
  const header = await readHeader(source);
  const { dims, recordDim } = header;
  // The record size is the sum of the record variables' vsizes, except that
  // a file with a single record variable has no padding between records.
  const recordVars = header.variables.filter((v) => v.dimIds[0] === recordDim && recordDim >= 0);
  const unpadded = (v: ClassicVariable): number =>
    v.dimIds.slice(1).reduce((n, id) => n * dims[id]!.size, WIDTH[v.type]);
  const recordSize = recordVars.length === 1 ? unpadded(recordVars[0]!) : recordVars.reduce((n, v) => n + v.vsize, 0);
  let numRecords = header.numRecords;
  if (numRecords < 0) {
    const first = recordVars[0];
    numRecords = first === undefined || recordSize === 0 ? 0 : Math.floor((source.size - first.begin) / recordSize);
  }
  const fileDims: NetcdfDim[] = dims.map((d, i) => ({
    name: d.name,
    size: i === recordDim ? numRecords : d.size,
    unlimited: i === recordDim,
  }));
  const variables: ClassicRawVariable[] = header.variables.map((v) => ({
    name: v.name,
    type: v.type,
    dims: v.dimIds.map((id) => ({ name: fileDims[id]!.name, size: fileDims[id]!.size })),
    attrs: v.attrs,
    chunking: null,
    compression: null,
    header: v,
    record: recordDim >= 0 && v.dimIds[0] === recordDim,
  }));
  for (const v of variables) {
    const perRecord = v.record ? unpadded(v.header) : v.dims.reduce((n, d) => n * d.size, WIDTH[v.header.type]);
    const count = v.record ? numRecords : 1;
    const end = v.header.begin + (count - 1) * (v.record ? recordSize : 0) + perRecord;
    if (count > 0 && perRecord > 0 && end > source.size) {
      throw new NetcdfError(
        "InvalidFile",
        `${label}: variable "${v.name}" ends at byte ${end} but the file has ${source.size} bytes (truncated file)`,
        {
          path: label,
          variable: v.name,
        },
      );
    }
  }
  return {
    format: header.version === 1 ? "classic" : "64bit-offset",
    dims: fileDims,
    variables,
    globalAttrs: header.globalAttrs,
    warnings: [],
    readSlab: (variable, start, count) => readSlab(source, variable as ClassicRawVariable, recordSize, start, count),
    close: () => source.close(),
  };
}

async function readHeader(source: ByteSource): Promise<ClassicHeader> {
  let length = Math.min(source.size, 64 * 1024);
  for (;;) {
    const bytes = await source.read(0, length);
    try {
      return parseClassicHeader(bytes);
    } catch (err) {
      if (err instanceof NeedMoreBytes && length < source.size) {
        length = Math.min(source.size, length * 4);
        continue;
      }
      const why =
        err instanceof NeedMoreBytes
          ? "the header runs past the end of the file (truncated file)"
          : (err as Error).message;
      throw new NetcdfError("InvalidFile", `${source.label}: not a readable netCDF-3 file (${why})`, {
        path: source.label,
        cause: err,
      });
    }
  }
}

/**
 * Reads a hyperslab: the byte range that covers it (for record variables,
 * the records it spans, other variables' data between them included), then
 * the slab's runs copied out and byte-swapped.
 */
async function readSlab(
  source: ByteSource,
  v: ClassicRawVariable,
  recordSize: number,
  start: readonly number[],
  count: readonly number[],
): Promise<SlabValues> {
  const width = WIDTH[v.header.type];
  const total = count.reduce((n, c) => n * c, 1);
  const out = new Uint8Array(total * width);
  if (total > 0) {
    const sizes = v.dims.map((d) => d.size);
    if (v.record) {
      const inner = sizes.slice(1);
      const innerBytes = inner.reduce((n, s) => n * s, width);
      const first = v.header.begin + start[0]! * recordSize;
      const span = (count[0]! - 1) * recordSize + innerBytes;
      const bytes = await source.read(first, span);
      const perRecord = (total / count[0]!) * width;
      for (let r = 0; r < count[0]!; r++) {
        copyRuns(bytes, r * recordSize, inner, start.slice(1), count.slice(1), width, out, r * perRecord);
      }
    } else {
      const strides = stridesOf(sizes, width);
      const from = start.reduce((n, s, i) => n + s * strides[i]!, 0);
      const to = start.reduce((n, s, i) => n + (s + count[i]! - 1) * strides[i]!, 0) + width;
      const bytes = await source.read(v.header.begin + from, to - from);
      copyRuns(bytes, -from, sizes, start, count, width, out, 0);
    }
  }
  if (v.header.type === "char") return { chars: out };
  return fromBigEndian(out, v.header.type);
}

function stridesOf(sizes: readonly number[], width: number): number[] {
  const strides = new Array<number>(sizes.length);
  let step = width;
  for (let i = sizes.length - 1; i >= 0; i--) {
    strides[i] = step;
    step *= sizes[i]!;
  }
  return strides;
}

/** Copies the slab `start`/`count` of a row-major array of `sizes` (at `base` in `bytes`) into `out` at `at`. */
function copyRuns(
  bytes: Uint8Array,
  base: number,
  sizes: readonly number[],
  start: readonly number[],
  count: readonly number[],
  width: number,
  out: Uint8Array,
  at: number,
): number {
  if (sizes.length === 0) {
    out.set(bytes.subarray(base, base + width), at);
    return at + width;
  }
  const strides = stridesOf(sizes, width);
  // The trailing dims read whole form one contiguous run.
  let k = sizes.length - 1;
  while (k > 0 && start[k] === 0 && count[k] === sizes[k]) k--;
  const run = count[k]! * strides[k]!;
  const walk = (dim: number, offset: number): void => {
    if (dim === k) {
      const from = offset + start[k]! * strides[k]!;
      out.set(bytes.subarray(from, from + run), at);
      at += run;
      return;
    }
    for (let i = 0; i < count[dim]!; i++) walk(dim + 1, offset + (start[dim]! + i) * strides[dim]!);
  };
  walk(0, base);
  return at;
}
