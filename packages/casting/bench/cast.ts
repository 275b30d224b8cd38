/**
 * castVector against plain typed-array baselines, best of 5 runs each.
 * Run: npx --yes pnpm@12.21.0 run bench   (from packages/casting)
 */
import { Float32, Float64, Int16, makeVector } from "apache-arrow";
import type { DataType, Vector } from "apache-arrow";
import { castVector } from "../src/index.js";
import type { Casting } from "../src/index.js";

const N = 64 * 1024 * 1024;
const RUNS = 5;

function best(run: () => unknown): number {
  let fastest = Infinity;
  for (let r = 0; r < RUNS; r++) {
    const start = performance.now();
    run();
    fastest = Math.min(fastest, performance.now() - start);
  }
  return fastest;
}

function report(
  name: string,
  vector: Vector,
  to: DataType,
  casting: Casting,
  baselineName: string,
  baseline: () => unknown,
): void {
  const base = best(baseline);
  const cast = best(() => castVector(vector, to, casting));
  console.log(
    `${name.padEnd(34)} castVector ${cast.toFixed(1).padStart(7)} ms   ${baselineName.padEnd(30)} ${base.toFixed(1).padStart(7)} ms   ratio ${(cast / base).toFixed(2)}`,
  );
}

const int32 = new Int32Array(N);
for (let i = 0; i < N; i++) int32[i] = (i * 2654435761) | 0;
report("Int32 -> Float64 (safe), 64 Mi", makeVector(int32), new Float64(), "safe", "Float64Array.from(int32)", () =>
  Float64Array.from(int32),
);

const float64 = Float64Array.from(int32, (x) => x / 7);
report(
  "Float64 -> Float32 (same_kind)",
  makeVector(float64),
  new Float32(),
  "same_kind",
  "Float32Array.from(float64)",
  () => Float32Array.from(float64),
);

const small = Int32Array.from(int32, (x) => x % 30000);
report(
  "Int32 -> Int16 (same_kind, checked)",
  makeVector(small),
  new Int16(),
  "same_kind",
  "Int16Array.from(int32)",
  () => Int16Array.from(small),
);

const int64 = BigInt64Array.from({ length: N / 16 }, (_, i) => BigInt(int32[i]!));
report(
  "Int64 -> Float64 (safe), 4 Mi",
  makeVector(int64),
  new Float64(),
  "safe",
  "Float64Array.from(int64, Number)",
  () => Float64Array.from(int64, Number),
);
