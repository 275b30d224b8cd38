// Float16 from JS numbers: every path that turns
// numbers into Float16 rounds as IEEE does, checked against numpy's vectors
// (packages/casting/test/fixtures/float16-numpy.json) on a real table:
// NdArray.from, attr.float16 (a global and a variable attribute) and a
// same_kind cast of Float64 rows into a Float16 variable.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Float16, Float64, type Vector } from "apache-arrow";
import { afterAll, describe, expect, it } from "vitest";
import { NdArray, NdRecordBatch, attr } from "@lance-nd/nd-arrow";
import { append, open, scan, write } from "lance-nd";
import { count } from "./helpers/counters.js";

const dir = mkdtempSync(join(tmpdir(), "lance-nd-float16-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The committed numpy vectors, read as data: each case is a double (hex bits)
// and the half numpy rounds it to.
const FIXTURE = join(import.meta.dirname, "..", "packages", "casting", "test", "fixtures", "float16-numpy.json");
const vectors = (
  JSON.parse(readFileSync(FIXTURE, "utf8")) as { cases: { name: string; double: string; half: number }[] }
).cases.map(({ name, double, half }) => ({
  name,
  value: new Float64Array(new BigUint64Array([BigInt(`0x${double}`)]).buffer)[0]!,
  half,
}));
const values = vectors.map((v) => v.value);
const isNaNHalf = (bits: number): boolean => (bits & 0x7c00) === 0x7c00 && (bits & 0x03ff) !== 0;

/** The vectors whose stored bits differ from numpy's (NaN payloads aside). */
function mismatches(got: Uint16Array): string[] {
  return vectors.flatMap(({ name, half }, i) =>
    got[i] === half || (isNaNHalf(got[i]!) && isNaNHalf(half))
      ? []
      : [`${name}: numpy 0x${half.toString(16)}, got 0x${got[i]!.toString(16)}`],
  );
}

function bits(vector: Vector): Uint16Array {
  return Uint16Array.from(
    vector.data.flatMap((d) => [...(d.values as Uint16Array).subarray(d.offset, d.offset + d.length)]),
  );
}

describe("numbers stored as Float16 in a Lance table are numpy's halves", () => {
  it(`${vectors.length} edge and seeded values through NdArray.from, attr.float16 and a same_kind cast`, async () => {
    const uri = join(dir, "halves.lance");
    const n = values.length;
    const h = NdArray.from(values, { dims: { i: n }, type: new Float16(), attrs: { scale: attr.float16(values) } });
    const table = await write(uri, [new NdRecordBatch({ h }, { id: "from-numbers", g: attr.float16(values) })]);
    const wide = NdArray.from(Float64Array.from(values), { dims: { i: n }, type: new Float64() });
    await append(table, [new NdRecordBatch({ h: wide }, { id: "cast" })], { casting: "same_kind" });

    const rows = await scan(await open(uri)).toArray();
    expect(rows.map((r) => r.globalAttr("id"))).toEqual(["from-numbers", "cast"]);
    const check = (name: string, got: Uint16Array): void => {
      expect(mismatches(got), name).toEqual([]);
      count("rowsVerified");
    };
    check("NdArray.from values", bits(rows[0]!.get("h")!.values));
    check("variable attribute attr.float16", bits(rows[0]!.get("h")!.attrs.get("scale")!.value));
    check("global attribute attr.float16", bits(rows[0]!.globalAttrs.get("g")!.value));
    check("Float64 rows cast same_kind into Float16", bits(rows[1]!.get("h")!.values));
  });
});
