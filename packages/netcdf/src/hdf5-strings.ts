/**
 * NC_STRING variables' values through h5wasm's low-level read, which keeps
 * a NIL value (a NULL `char *`) apart from an empty string (README,
 * "Conformance"); h5wasm's own reads give `""` for both.
 */
import type { H5Module } from "./h5wasm.js";

/**
 * The NC_STRING values of a slab, a NIL value (a NULL `char *`) as `null`:
 * read as the `char *` array HDF5 fills (4 bytes each, wasm32), since
 * h5wasm's own reads give a NIL value as `""`.
 */
export function vlenSlab(
  module: H5Module,
  fid: bigint,
  path: string,
  start: readonly number[],
  count: readonly number[],
  total: number,
): (string | null)[] {
  if (total === 0) return [];
  const pointers = module._malloc(4 * total);
  if (pointers === 0) throw new Error(`cannot allocate ${4 * total} bytes in wasm memory`);
  const rank0 = start.length === 0;
  try {
    module.get_dataset_data(
      fid,
      path,
      rank0 ? null : count.map(BigInt),
      rank0 ? null : start.map(BigInt),
      rank0 ? null : count.map(() => 1n),
      BigInt(pointers),
    );
    try {
      const heap = module.HEAPU8;
      const view = new DataView(heap.buffer, heap.byteOffset, heap.byteLength);
      const decoder = new TextDecoder();
      const out: (string | null)[] = [];
      for (let i = 0; i < total; i++) {
        const at = view.getUint32(pointers + 4 * i, true);
        out.push(at === 0 ? null : decoder.decode(heap.subarray(at, heap.indexOf(0, at))));
      }
      return out;
    } finally {
      if (rank0) module.reclaim_vlen_memory(fid, path, "", BigInt(pointers));
      else module.reclaim_vlen_memory_count(fid, path, "", BigInt(pointers), count.map(BigInt));
    }
  } finally {
    module._free(pointers);
  }
}
