/**
 * CF conventions through @lance-nd/cf: what openZarr reads, decoded by
 * cfDecode, against xarray's CF-decoded view of a store xarray wrote
 * (packing, _FillValue, CF times), and writeZarr(..., { cf: true })
 * encoding back to the stored values.
 */
import { join } from "node:path";
import { cfDecode } from "@lance-nd/cf";
import type { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { Type, type Timestamp } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { isZarrError, openZarr, writeZarr } from "../src/index.js";
import type { ZarrStore } from "../src/index.js";
import { fixtureScript, fixtureStores, python, skipOracle } from "./python-oracle.js";
import { spelledValues } from "./spelled.js";

const out = fixtureStores("xarray_v2_stores.py", "lance-nd-zarr-cf-");

interface View {
  variables: Record<string, { dtype: string; values: unknown[] }>;
}

const NS_PER: Record<number, bigint> = { 0: 1_000_000_000n, 1: 1_000_000n, 2: 1000n, 3: 1n };

/** Array `name` of `store`, CF-decoded (mask, scale and times). */
async function decoded(store: ZarrStore, name: string): Promise<NdArray> {
  return cfDecode(await store.read(name), { name });
}

/** The rows with every array CF-decoded. */
async function* decodedRows(rows: AsyncIterable<NdRecordBatch>): AsyncGenerator<NdRecordBatch> {
  for await (const row of rows)
    yield row.withArrays(row.arrays().map(([name, array]) => [name, cfDecode(array, { name })] as const));
}

describe.skipIf(skipOracle)("CF decoding and encoding through @lance-nd/cf", () => {
  it("cf.zarr read and cfDecoded: packed temp unpacked and masked, CF times as timestamps, as xarray decodes them", async () => {
    // xarray unpacks int16 to float32, @lance-nd/cf to float64 (its README): equal to float32 precision.
    const store = join(out.dir, "cf.zarr");
    const view = JSON.parse(python([fixtureScript("xarray_view.py"), store, "--decode"])) as View;
    const zarr = await openZarr(store);
    expect((await zarr.read("temp")).type.typeId).toBe(Type.Int);
    const temp = await decoded(zarr, "temp");
    expect(temp.type.typeId).toBe(Type.Float);
    const want = view.variables.temp!.values;
    const got = Array.from(temp.values as Iterable<number | null>, (v) => (v === null ? "NaN" : v));
    expect(got.length).toBe(want.length);
    for (const [i, v] of got.entries()) {
      if (v === "NaN") expect(want[i]).toBe("NaN");
      else expect(Math.abs(v - (want[i] as number))).toBeLessThan(1e-6 * Math.abs(v));
    }
    const time = await decoded(zarr, "time");
    expect(time.type.typeId).toBe(Type.Timestamp);
    const ns = NS_PER[(time.type as Timestamp).unit]!;
    expect(Array.from(time.values.data[0]!.values as BigInt64Array, (v) => String(v * ns))).toEqual(
      view.variables.time!.values,
    );
    const precip = await decoded(zarr, "precip");
    expect(spelledValues(precip)).toEqual(view.variables.precip!.values);
  });

  it("decoded rows -> writeZarr v2 with { cf: true } -> xarray opens the same dataset as the original", async () => {
    const zarr = await openZarr(join(out.dir, "cf.zarr"));
    const target = join(out.dir, "cf-roundtrip.zarr");
    await writeZarr(target, decodedRows(zarr.chunks({ time: 3 })), { version: 2, cf: true });
    const same = JSON.parse(python([fixtureScript("xarray_same.py"), join(out.dir, "cf.zarr"), target, "id"])) as {
      identical: boolean;
      why?: string;
    };
    expect(same.why ?? "").toBe("");
    expect(same.identical).toBe(true);
  });

  it("decoded times -> writeZarr v3 with { cf: true } -> the stored int32 days again", async () => {
    const zarr = await openZarr(join(out.dir, "cf.zarr"));
    const target = join(out.dir, "cf-v3.zarr");
    await writeZarr(target, decodedRows(zarr.chunks()), { cf: true });
    const raw = await openZarr(target);
    expect(raw.variable("time").dataType).toBe("int32");
    expect([...((await raw.read("time")).toArray() as Int32Array)]).toEqual([0, 1, 2, 3, 4, 5]);
    expect(raw.variable("temp").dataType).toBe("int16");
  });

  it("timestamps without CF units cannot be CF-encoded: CfFailed naming the array, CfError as cause, nothing written", async () => {
    const zarr = await openZarr(join(out.dir, "cf.zarr"));
    const time = (await decoded(zarr, "time")).withAttrs({});
    const { NdRecordBatch } = await import("@lance-nd/nd-arrow");
    const err = await writeZarr(join(out.dir, "bad-cf.zarr"), new NdRecordBatch({ time }), { cf: true }).catch(
      (e: unknown) => e,
    );
    expect(isZarrError(err, "CfFailed"), String(err)).toBe(true);
    expect((err as { variable?: string }).variable).toBe("time");
    expect((err as Error).cause).toBeInstanceOf(Error);
  });
});
