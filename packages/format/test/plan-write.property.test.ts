import {
  Bool,
  Float32,
  Float64,
  Int16,
  Int32,
  Int64,
  Int8,
  TimestampMillisecond,
  Uint16,
  Uint8,
  Utf8,
} from "apache-arrow";
import type { DataType } from "apache-arrow";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NdArray, NdRecordBatch, attr, encodeSchema, type Attr } from "@lance-nd/nd-arrow";
import { castVector, sameType } from "@lance-nd/casting";
import { decodeRows, encodeRows, planWrite, validateTableSchema, type WritePlan } from "../src/index.js";

// Variables and their possible types: two numeric ones (types vary from write
// to write, so promote casts and widens), a string and a timestamp one.
const NUMERIC = [
  new Bool(),
  new Int8(),
  new Int16(),
  new Int32(),
  new Int64(),
  new Uint8(),
  new Uint16(),
  new Float32(),
  new Float64(),
];
const VARIABLES: Record<string, DataType[]> = {
  a: NUMERIC,
  b: NUMERIC.slice(1),
  s: [new Utf8()],
  t: [new TimestampMillisecond("UTC")],
};
// Attribute keys have one type each (attributes follow safe casting).
const ATTRS: Record<string, () => Attr> = {
  units: () => attr.utf8("K"),
  scale: () => attr.float64(0.5),
  range: () => attr.float32([1, 2]),
  count: () => attr.int32(3),
};
const GLOBAL_ATTRS: Record<string, () => Attr> = {
  id: () => attr.utf8("row"),
  n: () => attr.int64(7n),
  tags: () => attr.utf8(["x", "y"]),
};

function valuesOf(type: DataType, n: number): unknown[] {
  const values = Array.from({ length: n }, (_, i) => (i % 3 === 2 ? null : i * 7));
  if (type.typeId === new Bool().typeId) return values.map((v) => (v === null ? null : v % 2 === 0));
  if (type.typeId === new Utf8().typeId) return values.map((v) => (v === null ? null : `v${v}`));
  const big = (type as { bitWidth?: number }).bitWidth === 64 || type.typeId === new TimestampMillisecond().typeId;
  return big ? values.map((v) => (v === null ? null : BigInt(v))) : values;
}

const variableArb = fc.record({
  typeIndex: fc.nat(),
  attrs: fc.subarray(Object.keys(ATTRS)),
  rank0: fc.boolean(),
});

const batchArb = fc.record({
  size: fc.integer({ min: 0, max: 4 }),
  variables: fc
    .dictionary(fc.constantFrom(...Object.keys(VARIABLES)), variableArb, { minKeys: 1 })
    .map((vars) => Object.entries(vars)),
  globals: fc.subarray(Object.keys(GLOBAL_ATTRS)),
});

type BatchSpec = typeof batchArb extends fc.Arbitrary<infer T> ? T : never;

function buildBatch(spec: BatchSpec): NdRecordBatch {
  const arrays = spec.variables.map(([name, v]) => {
    const types = VARIABLES[name]!;
    const type = types[v.typeIndex % types.length]!;
    const dims: Record<string, number> = v.rank0 ? {} : { x: spec.size };
    const attrs = new Map(v.attrs.map((key) => [key, ATTRS[key]!()]));
    return [name, NdArray.from(valuesOf(type, v.rank0 ? 1 : spec.size), { dims, type, attrs })] as const;
  });
  return new NdRecordBatch(arrays, new Map(spec.globals.map((key) => [key, GLOBAL_ATTRS[key]!()])));
}

/** The batch with the plan's value casts applied. */
function applyCasts(batch: NdRecordBatch, plan: WritePlan): NdRecordBatch {
  const casts = new Map(plan.casts.filter((c) => c.target === "values").map((c) => [c.column, c.to]));
  return withTypes(batch, (name) => casts.get(name));
}

function withTypes(batch: NdRecordBatch, typeOf: (name: string) => DataType | undefined): NdRecordBatch {
  const arrays = batch.names().map((name) => {
    const array = batch.get(name)!;
    const to = typeOf(name);
    if (to === undefined || sameType(to, array.type)) return [name, array] as const;
    return [name, new NdArray(castVector(array.values, to, "safe"), array.dims, array.attrs, array.metadata)] as const;
  });
  return new NdRecordBatch(arrays, batch.globalAttrs);
}

describe("planWrite property", () => {
  it("under promote, each batch of a random sequence encodes into its plan's schema, and all of them into the final schema", () => {
    fc.assert(
      fc.property(fc.array(batchArb, { minLength: 1, maxLength: 5 }), fc.boolean(), (specs, stats) => {
        const batches = specs.map(buildBatch);
        let schema = null;
        for (const batch of batches) {
          const plan = planWrite(schema, encodeSchema([batch]), { casting: "promote", stats });
          expect(plan.casts.every((c) => c.target === "values")).toBe(true);
          validateTableSchema(plan.schema);
          expect(encodeRows([applyCasts(batch, plan)], plan.schema).numRows).toBe(1);
          schema = plan.schema;
        }
        const layout = validateTableSchema(schema!);
        const final = batches.map((b) => withTypes(b, (name) => layout.arrays.get(name)?.valueType));
        const decoded = decodeRows(encodeRows(final, schema!));
        expect(decoded.map((b) => b.names().sort())).toEqual(batches.map((b) => b.names().sort()));
        expect(decoded.map((b) => [...b.globalAttrs.keys()].sort())).toEqual(
          batches.map((b) => [...b.globalAttrs.keys()].sort()),
        );
      }),
      { seed: 42, numRuns: 40 },
    );
  });
});
