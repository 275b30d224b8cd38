/**
 * Benchmark of computeStats against a hand-written loop over the same typed
 * array, measured in the same run. Run: `pnpm bench` in packages/stats.
 */
import { Float32, Float64, Int16, Int32, Int8, Uint16, Uint32, Uint8, Utf8, makeData, makeVector } from "apache-arrow";
import type { Vector } from "apache-arrow";
import { seededRandom } from "@lance-nd/test-helpers";
import { computeStats } from "../src/index.js";

const FLOATS = 64 * 1024 * 1024;
const STRINGS = 4 * 1024 * 1024;
const REPEATS = 5;

/**
 * The best wall times (ms) of `REPEATS` rounds of `baseline` then `ours`.
 * The rounds interleave the two, so a busy machine slows both alike.
 */
function race(baseline: () => unknown, ours: () => unknown): [number, number] {
  const time = (run: () => unknown): number => {
    const start = performance.now();
    run();
    return performance.now() - start;
  };
  let fastestBaseline = Infinity;
  let fastestOurs = Infinity;
  for (let i = 0; i < REPEATS; i++) {
    fastestBaseline = Math.min(fastestBaseline, time(baseline));
    fastestOurs = Math.min(fastestOurs, time(ours));
  }
  return [fastestBaseline, fastestOurs];
}

/** The baseline: min/max over the Float32Array, NaN skipped by the comparisons. */
function floatLoop(values: Float32Array, length: number): [number, number] {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < length; i++) {
    const v = values[i]!;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return [min, max];
}

/** The string baseline: one byte compare per value against the running min and max. */
function stringLoop(bytes: Uint8Array, offsets: Int32Array): [number, number] {
  const compare = (a: number, b: number): number => {
    const aStart = offsets[a]!;
    const bStart = offsets[b]!;
    const aLength = offsets[a + 1]! - aStart;
    const bLength = offsets[b + 1]! - bStart;
    for (let i = 0; i < Math.min(aLength, bLength); i++) {
      const diff = bytes[aStart + i]! - bytes[bStart + i]!;
      if (diff !== 0) return diff;
    }
    return aLength - bLength;
  };
  let min = 0;
  let max = 0;
  for (let i = 1; i < offsets.length - 1; i++) {
    if (compare(i, min) < 0) min = i;
    else if (compare(i, max) > 0) max = i;
  }
  return [min, max];
}

/**
 * Compiles both sides before timing: the baselines and computeStats on small
 * inputs, and computeStats once on every number storage, so its loop sees
 * all of them as in a real writer (no monomorphic head start).
 */
function warmUp(): void {
  // Short calls first: V8 then optimises each loop as a whole function. A
  // first long call would compile it on-stack mid-loop, before the code after
  // the loop ran, and that code would deoptimise on every later call.
  const tiny = new Float32Array(256);
  const tinyVector = makeVector(tiny);
  for (let i = 0; i < 2000; i++) {
    floatLoop(tiny, tiny.length);
    computeStats(tinyVector);
    stringLoop(stringBytes.subarray(0, offsets[64]), offsets.subarray(0, 65));
    computeStats(stringVector.slice(0, 64));
  }
  const small = new Float32Array(1 << 16);
  const smallVector = makeVector(small);
  for (let i = 0; i < 200; i++) {
    floatLoop(small, small.length);
    computeStats(smallVector);
    stringLoop(stringBytes.subarray(0, offsets[1000]), offsets.subarray(0, 1001));
    computeStats(stringVector.slice(0, 1000));
  }
  for (const [type, ArrayType] of [
    [new Int8(), Int8Array],
    [new Uint8(), Uint8Array],
    [new Int16(), Int16Array],
    [new Uint16(), Uint16Array],
    [new Int32(), Int32Array],
    [new Uint32(), Uint32Array],
    [new Float64(), Float64Array],
  ] as const) {
    computeStats(makeVector(makeData({ type, length: 1 << 16, data: new ArrayType(1 << 16) } as never)) as Vector);
  }
}

const next = seededRandom(42);
const floats = new Float32Array(FLOATS);
for (let i = 0; i < FLOATS; i++) floats[i] = next() < 0.01 ? NaN : (next() - 0.5) * 1e6;
const floatVector = makeVector(makeData({ type: new Float32(), length: FLOATS, data: floats }));

const encoder = new TextEncoder();
const alphabet = "abcdefghijklmnopqrstuvwxyzäöü€😀";
const parts: Uint8Array[] = [];
const offsets = new Int32Array(STRINGS + 1);
let total = 0;
for (let i = 0; i < STRINGS; i++) {
  let s = "";
  for (let n = 1 + Math.floor(next() * 12); n > 0; n--) s += [...alphabet][Math.floor(next() * 31)];
  const bytes = encoder.encode(s);
  parts.push(bytes);
  total += bytes.length;
  offsets[i + 1] = total;
}
const stringBytes = new Uint8Array(total);
parts.forEach((p, i) => {
  stringBytes.set(p, offsets[i]!);
});
const stringVector = makeVector(
  makeData({ type: new Utf8(), length: STRINGS, valueOffsets: offsets, data: stringBytes }),
);

warmUp();
const [floatBase, floatStats] = race(
  () => floatLoop(floats, FLOATS),
  () => computeStats(floatVector),
);
const [stringBase, stringStats] = race(
  () => stringLoop(stringBytes, offsets),
  () => computeStats(stringVector),
);

const row = (name: string, base: number, ours: number): string =>
  `${name.padEnd(26)} loop ${base.toFixed(1).padStart(7)} ms  computeStats ${ours.toFixed(1).padStart(7)} ms  ratio ${(ours / base).toFixed(2)}x`;
console.log(`best of ${REPEATS} interleaved rounds`);
console.log(row(`Float32 x ${FLOATS / 2 ** 20} Mi (1% NaN)`, floatBase, floatStats));
console.log(row(`Utf8 x ${STRINGS / 2 ** 20} Mi (1-12 chars)`, stringBase, stringStats));
