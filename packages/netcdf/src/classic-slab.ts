/**
 * A hyperslab of a netCDF-3 variable read by byte ranges (classic-file.ts
 * opens the file): only the bytes of the slab, or of the slots a record
 * variable's slab takes in each record, then copied out and byte-swapped.
 */
import { WIDTH, fromBigEndian } from "./classic-header.js";
import type { ClassicVariable } from "./classic-header.js";
import type { RawVariable, SlabValues } from "./raw.js";
import type { ByteSource } from "./source.js";

/** A variable of a netCDF-3 file: its header entry, and whether it is a record variable. */
export interface ClassicRawVariable extends RawVariable {
  readonly header: ClassicVariable;
  readonly record: boolean;
}

/**
 * The most bytes of other record variables between two slots of a record
 * variable's slab that one range reads through: past it, each record's
 * slot is a range of its own (a request of its own at a URL).
 */
const RECORD_GAP_BYTES = 8 * 1024;

/**
 * Reads a hyperslab and byte-swaps it. A variable that is not a record
 * variable is read as the one byte range that covers the slab. A record
 * variable's slab is a slot in each record it spans (the bytes of the
 * slab's inner part): the slots are read as one range over the records
 * when the other record variables' bytes between two slots are at most
 * {@link RECORD_GAP_BYTES}, else one range each, so a record coordinate
 * (a few bytes a record, read to resolve `--sel` labels) costs its own
 * bytes, not the whole file's.
 */
export async function readSlab(
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
      const [inner, innerStart, innerCount] = [sizes.slice(1), start.slice(1), count.slice(1)];
      const [from, to] = slabSpan(inner, innerStart, innerCount, width);
      const perRecord = (total / count[0]!) * width;
      const records = recordSize - (to - from) <= RECORD_GAP_BYTES ? count[0]! : 1;
      const reads: Promise<void>[] = [];
      for (let first = 0; first < count[0]!; first += records) {
        const n = Math.min(records, count[0]! - first);
        const offset = v.header.begin + (start[0]! + first) * recordSize + from;
        reads.push(
          source.read(offset, (n - 1) * recordSize + to - from).then((bytes) => {
            for (let r = 0; r < n; r++)
              copyRuns(
                bytes,
                r * recordSize - from,
                inner,
                innerStart,
                innerCount,
                width,
                out,
                (first + r) * perRecord,
              );
          }),
        );
      }
      await Promise.all(reads);
    } else {
      const [from, to] = slabSpan(sizes, start, count, width);
      const bytes = await source.read(v.header.begin + from, to - from);
      copyRuns(bytes, -from, sizes, start, count, width, out, 0);
    }
  }
  if (v.header.type === "char") return { chars: out };
  return fromBigEndian(out, v.header.type);
}

/** The bytes `[from, to)` of a row-major array of `sizes` that cover its slab `start`/`count`. */
function slabSpan(
  sizes: readonly number[],
  start: readonly number[],
  count: readonly number[],
  width: number,
): [number, number] {
  const strides = stridesOf(sizes, width);
  const from = start.reduce((n, s, i) => n + s * strides[i]!, 0);
  const to = start.reduce((n, s, i) => n + (s + count[i]! - 1) * strides[i]!, 0) + width;
  return [from, to];
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
