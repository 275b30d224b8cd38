/**
 * Values of a netCDF-4 variable read per hyperslab through h5wasm's
 * low-level calls, padded with the fill value past the variable's own extent
 * (ragged.ts).
 */
import type { H5Metadata, H5Module } from "./h5wasm.js";
import { hdf5ErrorText } from "./h5wasm.js";
import { fixedStrings, viaHeap } from "./hdf5-attrs.js";
import { missingFilters } from "./hdf5-filters.js";
import { vlenSlab } from "./hdf5-strings.js";
import { TYPED } from "./hdf5-types.js";
import { NetcdfError } from "./netcdf-error.js";
import { overlapCount, padSlab } from "./ragged.js";
import type { RawVariable, SlabValues } from "./raw.js";

/** A variable of a netCDF-4 file, with what a slab read of it needs. */
export interface Hdf5Variable extends RawVariable {
  readonly path: string;
  readonly metadata: H5Metadata;
  /** The stored shape: shorter than `dims` along an unlimited dim another variable is longer on. */
  readonly extent: readonly number[];
}

/** A slab of a variable, filled with its fill value past its own extent (ragged.ts). */
export function readPadded(
  module: H5Module,
  fid: bigint,
  v: Hdf5Variable,
  start: readonly number[],
  count: readonly number[],
  label: string,
): SlabValues {
  if (count.every((c, i) => start[i]! + c <= v.extent[i]!)) return readSlab(module, fid, v, start, count, label);
  const overlap = overlapCount(v.extent, start, count);
  const inner = readSlab(module, fid, v, start, overlap, label);
  return padSlab(v.type, v.attrs, inner, overlap, count);
}

function readSlab(
  module: H5Module,
  fid: bigint,
  v: Hdf5Variable,
  start: readonly number[],
  count: readonly number[],
  label: string,
): SlabValues {
  try {
    const total = count.reduce((n, c) => n * c, 1);
    const { metadata } = v;
    if (v.type === "string" && metadata.vlen) return { strings: vlenSlab(module, fid, v.path, start, count, total) };
    const rank0 = start.length === 0;
    const buffer = viaHeap(module, metadata.size * total, (p) => {
      if (total === 0) return;
      module.get_dataset_data(
        fid,
        v.path,
        rank0 ? null : count.map(BigInt),
        rank0 ? null : start.map(BigInt),
        rank0 ? null : count.map(() => 1n),
        p,
      );
    });
    if (v.type === "char") return { chars: new Uint8Array(buffer, 0, total) };
    if (v.type === "string") return { strings: fixedStrings(buffer, metadata.size, total) };
    return new TYPED[v.type](
      buffer.byteLength === metadata.size * total ? buffer : buffer.slice(0, metadata.size * total),
    );
  } catch (cause) {
    const missing = missingFilters(module, fid, v.path, cause);
    if (missing.length > 0) {
      throw new NetcdfError(
        "UnsupportedFilter",
        `${label}: cannot read variable "${v.name}": it needs HDF5 filter ${missing.join(", ")}, which neither h5wasm nor h5wasm-plugins provides`,
        { path: label, variable: v.name, cause },
      );
    }
    throw new NetcdfError("InvalidFile", `${label}: cannot read variable "${v.name}" (${hdf5ErrorText(cause)})`, {
      path: label,
      variable: v.name,
      cause,
    });
  }
}
