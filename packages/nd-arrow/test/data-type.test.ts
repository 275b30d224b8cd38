import { describe, expect, it } from "vitest";
import { Float16, Float32, Uint32 } from "apache-arrow";
import { isFloat16, typedArrayType } from "../src/data-type.js";

describe("type guards", () => {
  it("isFloat16 is true only for half floats", () => {
    expect(isFloat16(new Float16())).toBe(true);
    expect(isFloat16(new Float32())).toBe(false);
    expect(isFloat16(new Uint32())).toBe(false);
  });

  it("typedArrayType maps every typed array to its element type", () => {
    const cases: [ArrayBufferView, string][] = [
      [new Int8Array(), "Int8"],
      [new Int16Array(), "Int16"],
      [new Int32Array(), "Int32"],
      [new BigInt64Array(), "Int64"],
      [new Uint8Array(), "Uint8"],
      [new Uint8ClampedArray(), "Uint8"],
      [new Uint16Array(), "Uint16"],
      [new Uint32Array(), "Uint32"],
      [new BigUint64Array(), "Uint64"],
      [new Float32Array(), "Float32"],
      [new Float64Array(), "Float64"],
    ];
    for (const [array, type] of cases) expect(String(typedArrayType(array as never))).toBe(type);
  });
});
