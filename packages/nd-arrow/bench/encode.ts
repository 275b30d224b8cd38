/**
 * Encode/decode throughput against a plain copy of the same bytes.
 *
 * 256 rows of 1 MiB Float32 each (256 MiB): the baseline allocates one
 * buffer and `TypedArray.set`s every row into it; `encode` must stay within
 * 2x of that. `decode` is zero-copy for fixed-width values, so it is
 * reported in milliseconds. Best of several repetitions.
 *
 * Run: npx --yes pnpm@12.21.0 --filter @lance-nd/nd-arrow bench
 */
import { NdArray, NdRecordBatch, decode, encode } from "@lance-nd/nd-arrow";

const ROWS = 256;
const SIDE = 512; // 512 x 512 Float32 = 1 MiB per row
const REPS = 5;

function time(fn: () => unknown): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

/** Best time of each function; repetitions alternate between them so load and GC hit both alike. */
function best(...fns: (() => unknown)[]): number[] {
  const min = fns.map(() => Infinity);
  for (let i = 0; i < REPS; i++) for (const [j, fn] of fns.entries()) min[j] = Math.min(min[j]!, time(fn));
  return min;
}

const sources = Array.from({ length: ROWS }, (_, r) => new Float32Array(SIDE * SIDE).fill(r));
const batches = sources.map(
  (values, r) =>
    new NdRecordBatch(
      { sst: NdArray.from(values, { dims: { lat: SIDE, lon: SIDE }, attrs: { units: "K" } }) },
      { row: r },
    ),
);

const [memcpy, encodeMs] = best(
  () => {
    const out = new Float32Array(ROWS * SIDE * SIDE);
    let at = 0;
    for (const s of sources) {
      out.set(s, at);
      at += s.length;
    }
    return out;
  },
  () => encode(batches),
) as [number, number];
const rb = encode(batches);
const [decodeMs] = best(() => decode(rb)) as [number];

const mib = (ROWS * SIDE * SIDE * 4) / 2 ** 20;
console.log(`nd-arrow encode bench: ${ROWS} rows x ${SIDE}x${SIDE} Float32 (${mib} MiB), best of ${REPS}`);
console.log(`memcpy (TypedArray.set)  ${memcpy.toFixed(1)} ms  (${((mib / memcpy) * 1000).toFixed(0)} MiB/s)`);
console.log(`encode                   ${encodeMs.toFixed(1)} ms  (${((mib / encodeMs) * 1000).toFixed(0)} MiB/s)`);
console.log(`decode                   ${decodeMs.toFixed(1)} ms  (zero-copy views)`);
console.log(`encode / memcpy          ${(encodeMs / memcpy).toFixed(2)}x  (target <= 2x)`);
