import { describe, expect, it } from "vitest";
import {
  Binary,
  Float32,
  Int16,
  Int32,
  LargeUtf8,
  TimeUnit,
  Type,
  Uint8,
  Utf8,
  type List,
  type Timestamp,
} from "apache-arrow";
import { type Attr, attr, isNdArrowError, toAttr, toAttrs } from "../src/index.js";

const itemOf = (a: Attr) => (a.type as List).children[0]!.type;

describe("JS -> attribute type mapping (FORMAT.md section 3.1)", () => {
  it.each([
    ["string -> Utf8", "K", Type.Utf8, "K"],
    ["boolean -> Bool", true, Type.Bool, true],
    ["bigint -> Int64", 5n, Type.Int, 5n],
    ["integer number -> Float64", 3, Type.Float, 3],
    ["non-integer number -> Float64", 2.5, Type.Float, 2.5],
  ] as const)("%s", (_, input, typeId, js) => {
    const a = toAttr(input);
    expect(a.isList).toBe(false);
    expect(a.type.typeId).toBe(typeId);
    expect(a.toJS()).toEqual(js);
  });

  it("Date -> Timestamp(ms, UTC)", () => {
    const a = toAttr(new Date(1234));
    const t = a.type as Timestamp;
    expect(t.typeId).toBe(Type.Timestamp);
    expect(t.unit).toBe(TimeUnit.MILLISECOND);
    expect(t.timezone).toBe("UTC");
    expect(a.toJS()).toBe(1234);
  });

  it("arrays -> List of their element type", () => {
    const nums = toAttr([0, 40]);
    expect(nums.isList).toBe(true);
    expect(itemOf(nums).toString()).toBe("Float64");
    expect(nums.toJS()).toEqual([0, 40]);
    expect(itemOf(toAttr(["a", "b"])).typeId).toBe(Type.Utf8);
    expect(itemOf(toAttr([true])).typeId).toBe(Type.Bool);
    expect(itemOf(toAttr([1n])).toString()).toBe("Int64");
    expect(itemOf(toAttr([])).toString()).toBe("Float64");
  });

  it("typed arrays -> List of their element type", () => {
    expect(itemOf(toAttr(new Int16Array([1, 2]))).toString()).toBe(new Int16().toString());
    expect(itemOf(toAttr(new Float32Array([1]))).toString()).toBe(new Float32().toString());
    expect(itemOf(toAttr(new Uint8Array([1]))).toString()).toBe(new Uint8().toString());
    expect(toAttr(new Int32Array([7, 8])).toJS()).toEqual([7, 8]);
  });

  it("an Attr passes through unchanged", () => {
    const a = attr.int32(4);
    expect(toAttr(a)).toBe(a);
  });

  it("mixed arrays, null and objects are InvalidArgument naming column and key", () => {
    for (const bad of [[1, "a"], null, { a: 1 }] as unknown[]) {
      try {
        toAttr(bad as never, { column: "sst", key: "units" });
        expect.unreachable();
      } catch (err) {
        expect(isNdArrowError(err, "InvalidArgument")).toBe(true);
        expect((err as Error).message).toContain('"units"');
        expect((err as { column?: string }).column).toBe("sst");
      }
    }
  });
});

describe("typed attribute helpers", () => {
  it("a value makes a scalar, an array makes a list of exactly that type", () => {
    expect(attr.int32(4).type.toString()).toBe(new Int32().toString());
    expect(attr.float32([270, 310]).type.toString()).toBe("List<Float32>");
    expect(attr.float32([270, 310]).toJS()).toEqual([270, 310]);
    expect(attr.int64(5).toJS()).toBe(5n);
    expect(attr.largeUtf8("x").type.toString()).toBe(new LargeUtf8().toString());
    expect(attr.utf8(["a"]).type.toString()).toBe(`List<${new Utf8()}>`);
  });

  it("timestamp helper converts Dates to its unit and keeps the zone", () => {
    const a = attr.timestamp("s", "Europe/Paris")(new Date(5000));
    expect((a.type as Timestamp).timezone).toBe("Europe/Paris");
    expect(a.value.data[0]!.values[0]).toBe(5n);
  });

  it("date32 stores days; time and duration pick their bit widths", () => {
    expect(attr.date32(new Date(2 * 86_400_000)).value.data[0]!.values[0]).toBe(2);
    expect(attr.time("ms")(1).type.toString()).toBe("Time32<MILLISECOND>");
    expect(attr.time("ns")(1n).type.toString()).toBe("Time64<NANOSECOND>");
    expect(attr.duration("us")(3n).type.toString()).toContain("Duration");
  });

  it("a value that does not fit the type is InvalidArgument", () => {
    expect(() => attr.int32("x" as never)).toThrow(expect.objectContaining({ code: "InvalidArgument" }));
  });
});

describe("toAttrs", () => {
  it("keeps key order from records and maps", () => {
    expect([...toAttrs({ b: 1, a: 2 }).keys()]).toEqual(["b", "a"]);
    expect([
      ...toAttrs(
        new Map([
          ["z", 1],
          ["y", 2],
        ]),
      ).keys(),
    ]).toEqual(["z", "y"]);
  });

  it("an empty key is InvalidArgument", () => {
    expect(() => toAttrs({ "": 1 })).toThrow(expect.objectContaining({ code: "InvalidArgument" }));
  });

  it("Binary is not an attribute type: UnsupportedType", () => {
    expect(() => attr.of(new Binary(), [new Uint8Array(1)])).toThrow(
      expect.objectContaining({ code: "UnsupportedType" }),
    );
  });
});
