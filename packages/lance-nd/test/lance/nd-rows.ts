// Builds rows in the nd_arrow.array layout straight from typed arrays, for
// the SDK tests and the raw-lancedb bench (the nd-arrow codec is not used, so
// these measure the SDK alone).
import * as arrow from "apache-arrow";
import type { Data, DataType, Field, RecordBatch } from "apache-arrow";

/** One array row: flat values, dims in order, string attributes; null = no array in this row. */
export type NdRow = {
  values: Float32Array | Float64Array;
  dims: [string, number][];
  attrs?: Record<string, string>;
} | null;

/** The `nd_arrow.array` struct type for value type `valueType`, with string attributes `attrKeys` and metadata on the `item` leaf. */
export function ndType(
  valueType: DataType,
  attrKeys: readonly string[],
  leafMetadata: Record<string, string> = {},
): arrow.Struct {
  const children: Field[] = [
    new arrow.Field(
      "values",
      new arrow.List(new arrow.Field("item", valueType, true, new Map(Object.entries(leafMetadata)))),
      false,
    ),
    new arrow.Field("dim_names", new arrow.List(new arrow.Field("item", new arrow.Utf8(), false)), false),
    new arrow.Field("dim_sizes", new arrow.List(new arrow.Field("item", new arrow.Uint32(), false)), false),
  ];
  if (attrKeys.length > 0) {
    children.push(
      new arrow.Field(
        "attrs",
        new arrow.Struct(attrKeys.map((k) => new arrow.Field(k, new arrow.Utf8(), true))),
        false,
      ),
    );
  }
  return new arrow.Struct(children);
}

/** The field of an array column: nullable, with the nd_arrow.array extension metadata plus `metadata`. */
export function ndField(name: string, type: arrow.Struct, metadata: Record<string, string> = {}): arrow.Field {
  return new arrow.Field(
    name,
    type,
    true,
    new Map([
      ["ARROW:extension:name", "nd_arrow.array"],
      ["ARROW:extension:metadata", "{}"],
      ...Object.entries(metadata),
    ]),
  );
}

/** The data of one array column; a null row gets valid, empty children. */
export function ndData(type: arrow.Struct, rows: readonly NdRow[]): Data {
  const n = rows.length;
  const valuesField = type.children[0] as Field;
  const valueType = (valuesField.type.children[0] as Field).type;
  const total = rows.reduce((sum, r) => sum + (r?.values.length ?? 0), 0);
  const values =
    valueType.typeId === arrow.Type.Float && (valueType as arrow.Float).precision === arrow.Precision.DOUBLE
      ? new Float64Array(total)
      : new Float32Array(total);
  const valueOffsets = new Int32Array(n + 1);
  const dimOffsets = new Int32Array(n + 1);
  const dimNames: string[] = [];
  const dimSizes: number[] = [];
  const validity = new Uint8Array(Math.ceil(n / 8));
  let nullCount = 0;
  rows.forEach((row, i) => {
    if (row === null) nullCount++;
    else {
      validity[i >> 3]! |= 1 << (i & 7);
      values.set(row.values, valueOffsets[i]!);
      for (const [name, size] of row.dims) {
        dimNames.push(name);
        dimSizes.push(size);
      }
    }
    valueOffsets[i + 1] = valueOffsets[i]! + (row?.values.length ?? 0);
    dimOffsets[i + 1] = dimNames.length;
  });
  const children = [
    arrow.makeData({
      type: valuesField.type,
      length: n,
      valueOffsets,
      child: arrow.makeData({ type: valueType, length: total, data: values }),
    }),
    arrow.makeData({
      type: (type.children[1] as Field).type,
      length: n,
      valueOffsets: dimOffsets,
      child: utf8Data(dimNames),
    }),
    arrow.makeData({
      type: (type.children[2] as Field).type,
      length: n,
      valueOffsets: dimOffsets,
      child: arrow.makeData({ type: new arrow.Uint32(), length: dimSizes.length, data: Uint32Array.from(dimSizes) }),
    }),
  ];
  const attrsField = type.children[3] as Field | undefined;
  if (attrsField !== undefined) {
    const keys = (attrsField.type.children as Field[]).map((f) => f.name);
    children.push(
      arrow.makeData({
        type: attrsField.type,
        length: n,
        children: keys.map((k) => utf8Data(rows.map((r) => r?.attrs?.[k] ?? null))),
      }),
    );
  }
  return arrow.makeData({ type, length: n, children, nullBitmap: nullCount > 0 ? validity : null, nullCount } as never);
}

/** A Utf8 column; nulls allowed. */
export function utf8Data(strings: readonly (string | null)[]): Data {
  const encoder = new TextEncoder();
  const parts = strings.map((s) => encoder.encode(s ?? ""));
  const offsets = new Int32Array(strings.length + 1);
  for (const [i, p] of parts.entries()) offsets[i + 1] = offsets[i]! + p.length;
  const bytes = new Uint8Array(offsets[strings.length]!);
  for (const [i, p] of parts.entries()) bytes.set(p, offsets[i]!);
  const validity = new Uint8Array(Math.ceil(strings.length / 8));
  for (const [i, s] of strings.entries()) if (s !== null) validity[i >> 3]! |= 1 << (i & 7);
  const nullCount = strings.filter((s) => s === null).length;
  return arrow.makeData({
    type: new arrow.Utf8(),
    length: strings.length,
    valueOffsets: offsets,
    data: bytes,
    nullBitmap: validity,
    nullCount,
  });
}

/** The `__global_attrs__` type with Utf8 keys. */
export function globalAttrsType(keys: readonly string[]): arrow.Struct {
  return new arrow.Struct(keys.map((k) => new arrow.Field(k, new arrow.Utf8(), true)));
}

/** A `__global_attrs__` column with Utf8 keys. */
export function globalAttrsData(type: arrow.Struct, rows: readonly Record<string, string>[]): Data {
  const keys = (type.children as Field[]).map((f) => f.name);
  return arrow.makeData({
    type,
    length: rows.length,
    children: keys.map((k) => utf8Data(rows.map((r) => r[k] ?? null))),
  });
}

/** A record batch from fields and their data, with schema metadata. */
export function batchOf(
  fields: readonly Field[],
  data: readonly Data[],
  metadata: Record<string, string> = {},
): RecordBatch {
  const schema = new arrow.Schema([...fields], new Map(Object.entries(metadata)));
  const length = data[0]?.length ?? 0;
  return new arrow.RecordBatch(
    schema,
    arrow.makeData({ type: new arrow.Struct([...fields]), length, children: [...data] }),
  );
}

/** A small table of `n` rows: `sst` (Float32, dims time x lat, attr units) and `__global_attrs__.id` = "r<i>". */
export function sampleBatch(
  n: number,
  options: { first?: number; nullRows?: readonly number[]; leafMetadata?: Record<string, string> } = {},
): RecordBatch {
  const first = options.first ?? 0;
  const sstType = ndType(new arrow.Float32(), ["units"], options.leafMetadata);
  const rows: NdRow[] = Array.from({ length: n }, (_, i) =>
    options.nullRows?.includes(i) === true
      ? null
      : {
          values: Float32Array.from({ length: 6 }, (_, j) => (first + i) * 10 + j),
          dims: [
            ["time", 2],
            ["lat", 3],
          ],
          attrs: { units: "K" },
        },
  );
  const gaType = globalAttrsType(["id"]);
  return batchOf(
    [ndField("sst", sstType, { mine: "x" }), new arrow.Field("__global_attrs__", gaType, true)],
    [
      ndData(sstType, rows),
      globalAttrsData(
        gaType,
        rows.map((_, i) => ({ id: `r${first + i}` })),
      ),
    ],
    { "lance_nd:format": "1" },
  );
}

/** All items of an async iterable (Node 20 has no Array.fromAsync). */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
