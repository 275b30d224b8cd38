import { describe, expect, it } from "vitest";
import { failure } from "@lance-nd/test-helpers";
import { isNetcdfError } from "../src/index.js";
import { openNetcdf } from "../src/index.js";

/** Big-endian writer for hand-made netCDF-3 files. */
class Bytes {
  readonly out: number[] = [];
  u32(n: number): this {
    this.out.push((n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255);
    return this;
  }
  i16(n: number): this {
    this.out.push((n >> 8) & 255, n & 255);
    return this;
  }
  name(s: string): this {
    this.u32(s.length);
    for (const c of s) this.out.push(c.charCodeAt(0));
    while (this.out.length % 4 !== 0) this.out.push(0);
    return this;
  }
}

const NC_DIMENSION = 10;
const NC_VARIABLE = 11;
const NC_SHORT = 3;
const NC_DOUBLE = 6;

/**
 * A CDF-1 file: dims t (unlimited, 3 records) and x = 3; x(x) short and
 * d(x) double (non-record), v(t) short, the only record variable, so its
 * records are not padded (2 bytes apart).
 */
function handMade(): Uint8Array {
  const header = (xBegin: number, dBegin: number, vBegin: number): Bytes => {
    const b = new Bytes();
    b.out.push(0x43, 0x44, 0x46, 1);
    b.u32(3); // numrecs
    b.u32(NC_DIMENSION).u32(2).name("t").u32(0).name("x").u32(3);
    b.u32(0).u32(0); // no global attributes
    b.u32(NC_VARIABLE).u32(3);
    b.name("x").u32(1).u32(1).u32(0).u32(0).u32(NC_SHORT).u32(8).u32(xBegin);
    b.name("d").u32(1).u32(1).u32(0).u32(0).u32(NC_DOUBLE).u32(24).u32(dBegin);
    b.name("v").u32(1).u32(0).u32(0).u32(0).u32(NC_SHORT).u32(4).u32(vBegin);
    return b;
  };
  const size = header(0, 0, 0).out.length;
  const file = header(size, size + 8, size + 32);
  file.i16(-2).i16(0).i16(300).i16(0); // x, padded to 8
  const d = new DataView(new ArrayBuffer(24));
  for (const [i, v] of [0.5, -1e300, Math.PI].entries()) d.setFloat64(8 * i, v);
  file.out.push(...new Uint8Array(d.buffer));
  file.i16(7).i16(-8).i16(32767); // v: three unpadded records
  return Uint8Array.from(file.out);
}

describe("netCDF-3 by byte ranges (hand-made CDF-1)", () => {
  it("reads big-endian shorts and doubles exactly", async () => {
    const file = await openNetcdf(handMade());
    expect(Array.from((await file.read("x")).toArray())).toEqual([-2, 0, 300]);
    expect(Array.from((await file.read("d")).toArray())).toEqual([0.5, -1e300, Math.PI]);
  });

  it("a lone record variable has unpadded records; the unlimited dim has numrecs", async () => {
    const file = await openNetcdf(handMade());
    expect(file.dims).toEqual([
      { name: "t", size: 3, unlimited: true },
      { name: "x", size: 3, unlimited: false },
    ]);
    const v = await file.read("v");
    expect(v.dims).toEqual([{ name: "t", size: 3 }]);
    expect(Array.from(v.toArray())).toEqual([7, -8, 32767]);
  });

  it("a window reads only its slab, of record and non-record variables", async () => {
    const file = await openNetcdf(handMade());
    expect(Array.from((await file.read("v", { t: [1, 3] })).toArray())).toEqual([-8, 32767]);
    expect(Array.from((await file.read("d", { x: [2, 3] })).toArray())).toEqual([Math.PI]);
  });

  it("a range past the variable is clamped (a Python slice); an index outside it is InvalidArgument naming it", async () => {
    const file = await openNetcdf(handMade());
    expect(Array.from((await file.read("v", { t: [2, 5] })).toArray())).toEqual([32767]);
    const err = await failure(() => file.read("v", { t: 5 }));
    expect(isNetcdfError(err, "InvalidArgument")).toBe(true);
    expect((err as Error).message).toMatch(/index 5 along "t" is out of range for size 3 \(variable "v"\)/);
  });

  it("a file cut inside the data is InvalidFile naming the variable", async () => {
    const bytes = handMade();
    const err = await failure(() => openNetcdf(bytes.subarray(0, bytes.length - 3)));
    expect(isNetcdfError(err, "InvalidFile")).toBe(true);
    expect((err as Error).message).toMatch(/<bytes>: variable "v" .*truncated/);
  });

  it("a damaged header is InvalidFile", async () => {
    const bytes = handMade();
    bytes[11] = 99; // the dimension list tag
    expect(isNetcdfError(await failure(() => openNetcdf(bytes)), "InvalidFile")).toBe(true);
  });
});
