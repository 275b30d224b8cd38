import { readFileSync } from "node:fs";
import {
  Bool,
  Float16,
  Float32,
  Float64,
  Int8,
  Int16,
  Int32,
  Int64,
  Uint8,
  Uint16,
  Uint32,
  Uint64,
} from "apache-arrow";
import type { DataType } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { canCast, promoteTypes, sameType } from "../src/index.js";

interface NumpyCase {
  from: string;
  to: string;
  no: boolean;
  safe: boolean;
  same_kind: boolean;
  promote: string;
}

const TYPES: Record<string, () => DataType> = {
  Bool: () => new Bool(),
  UInt8: () => new Uint8(),
  UInt16: () => new Uint16(),
  UInt32: () => new Uint32(),
  UInt64: () => new Uint64(),
  Int8: () => new Int8(),
  Int16: () => new Int16(),
  Int32: () => new Int32(),
  Int64: () => new Int64(),
  Float16: () => new Float16(),
  Float32: () => new Float32(),
  Float64: () => new Float64(),
};

function arrow(name: string): DataType {
  const make = TYPES[name];
  if (make === undefined) throw new Error(`no Arrow type for numpy's ${name}`);
  return make();
}

// numpy's own tables (numpy 1.24.2), copied from the project's shared test vectors so the test runs in any checkout.
const golden = JSON.parse(readFileSync(new URL("./fixtures/numpy-casting.json", import.meta.url), "utf8")) as {
  cases: NumpyCase[];
};

describe("numpy 1.24 can_cast and promote_types over the 12 numeric types", () => {
  it("covers all 144 pairs", () => {
    expect(golden.cases).toHaveLength(144);
  });

  it.each(golden.cases.map((c) => [`${c.from} -> ${c.to}`, c] as const))("%s", (_name, c) => {
    const from = arrow(c.from);
    const to = arrow(c.to);
    expect({
      no: canCast(from, to, "no"),
      safe: canCast(from, to, "safe"),
      same_kind: canCast(from, to, "same_kind"),
      promote: sameType(promoteTypes(from, to), arrow(c.promote)),
    }).toEqual({ no: c.no, safe: c.safe, same_kind: c.same_kind, promote: true });
  });
});
