/**
 * The positions of a strided walk over a row-major grid, the index array
 * behind the strided copies and gathers (`strided.ts`, `copy-runs.ts`).
 */

/**
 * Positions of a strided walk, row-major over `sizes`: entry `(i0, i1, ...)`
 * is `start + i0 * strides[0] + i1 * strides[1] + ...`. A stride of 0
 * repeats (broadcasts) along that dim. Built block by block, no per-cell
 * arithmetic over all dims.
 *
 * @example
 * stridedIndices([2, 3], [1, 0]);       // [0, 0, 0, 1, 1, 1]
 * stridedIndices([2, 2], [4, 1], 5);    // [5, 6, 9, 10]
 */
export function stridedIndices(sizes: readonly number[], strides: readonly number[], start = 0): Uint32Array {
  const total = sizes.reduce((n, s) => n * s, 1);
  const out = new Uint32Array(total);
  if (total === 0) return out;
  out[0] = start;
  let block = 1;
  for (let d = sizes.length - 1; d >= 0; d--) {
    const size = sizes[d]!;
    const stride = strides[d]!;
    if (stride === 0 && block === 1) out.fill(start, 1, size);
    else {
      for (let j = 1; j < size; j++) {
        const at = j * block;
        const add = j * stride;
        if (add === 0) out.copyWithin(at, 0, block);
        else for (let k = 0; k < block; k++) out[at + k] = out[k]! + add;
      }
    }
    block *= size;
  }
  return out;
}
