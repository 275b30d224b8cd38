/**
 * numpy's Float16 rounding vectors (test/fixtures/float16-numpy.json, made
 * by scripts/float16-vectors.py), shared by the casting, nd-arrow and
 * reliability tests: each case is a double and the half bits numpy gives.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { pythonMissing, runPython } from "@lance-nd/test-helpers";

/** One vector: a name, the double, and numpy's half-precision bits for it. */
export interface Float16Vector {
  name: string;
  value: number;
  half: number;
}

interface RawVectors {
  numpy: string;
  cases: Array<{ name: string; double: string; half: number }>;
}

const SCRIPT = fileURLToPath(new URL("../scripts/float16-vectors.py", import.meta.url));
const FIXTURE = new URL("./fixtures/float16-numpy.json", import.meta.url);

function parse(text: string): Float16Vector[] {
  const raw = JSON.parse(text) as RawVectors;
  const view = new DataView(new ArrayBuffer(8));
  return raw.cases.map(({ name, double, half }) => {
    view.setBigUint64(0, BigInt(`0x${double}`));
    return { name, value: view.getFloat64(0), half };
  });
}

/** The committed vectors. */
export function float16Vectors(): Float16Vector[] {
  return parse(readFileSync(FIXTURE, "utf8"));
}

/**
 * The vectors as numpy computes them now (the script run with --print by
 * /usr/bin/python3), or the reason they cannot be computed here (numpy missing).
 */
export function numpyFloat16Vectors(): Float16Vector[] | string {
  const missing = pythonMissing(["numpy"]);
  if (missing !== undefined) return `numpy oracle unavailable: ${missing}`;
  return parse(runPython([SCRIPT, "--print"]));
}

/** Vectors whose `actual(value, index)` bits differ from numpy's (NaN payloads aside), as readable lines. */
export function float16Mismatches(
  vectors: readonly Float16Vector[],
  actual: (value: number, index: number) => number,
): string[] {
  const isNaNBits = (bits: number): boolean => (bits & 0x7c00) === 0x7c00 && (bits & 0x03ff) !== 0;
  return vectors.flatMap(({ name, value, half }, i) => {
    const got = actual(value, i);
    const same = got === half || (isNaNBits(got) && isNaNBits(half));
    return same ? [] : [`${name} (${value}): numpy 0x${half.toString(16)}, got 0x${got.toString(16)} [${i}]`];
  });
}
