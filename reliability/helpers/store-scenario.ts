// One write/read scenario run through any object store (memory://, an
// S3-compatible server): every public operation, with the rows checked
// against a model after each, through handles opened anew with the same
// storageOptions.
import { Float32, Float64 } from "apache-arrow";
import { expect } from "vitest";
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { NdWriter, append, col, open, scan, stat, widen, write, type NdTable } from "lance-nd";
import { count } from "./counters.js";
import { plainRow, rowsById, type PlainRow } from "./plain-rows.js";

/** Row `i`: `sst` Float32 [y 2, x 3] with a null, `label` Utf8, id `r<i>`. */
export function storeRow(i: number): NdRecordBatch {
  return new NdRecordBatch(
    {
      sst: NdArray.from([i, i + 1, null, i + 3, i + 4, i + 5], {
        dims: { y: 2, x: 3 },
        type: new Float32(),
        attrs: { units: "K" },
      }),
      label: NdArray.from([`row ${i}`], { dims: {} }),
    },
    { id: `r${i}`, i },
  );
}

async function expectRows(table: NdTable, model: Map<string, PlainRow>, types = true): Promise<void> {
  const actual = await rowsById(table, { types });
  const expected = new Map(
    [...model]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([id, row]) => [
        id,
        [
          types
            ? row
            : {
                ...row,
                arrays: Object.fromEntries(Object.entries(row.arrays).map(([k, v]) => [k, { ...v, type: "" }])),
              },
        ],
      ]),
  );
  expect(actual).toEqual(expected);
  count("rowsVerified", model.size);
}

/**
 * Writes, appends (write, append, NdWriter in several adds), reads back
 * through a fresh handle, filters, deletes, compacts, widens, checks out and
 * restores the table at `uri`, passing `storageOptions` to every call that
 * takes them. `writeParallelism` 1 keeps the NdWriter to one commit at a
 * time, for stores without conditional PUT (two racing commits of one
 * version would overwrite each other's manifest there).
 */
export async function storeScenario(
  uri: string,
  storageOptions?: Record<string, string>,
  writeParallelism?: number,
): Promise<void> {
  const so = storageOptions === undefined ? {} : { storageOptions };
  const model = new Map<string, PlainRow>();
  const remember = (rows: NdRecordBatch[]) => {
    for (const b of rows) model.set(String(b.globalAttr("id")), plainRow(b));
  };

  const first = [0, 1, 2].map(storeRow);
  let table = await write(uri, first, { stats: true, ...so });
  remember(first);
  const firstVersion = await table.version();

  const more = [3, 4].map(storeRow);
  table = await append(table, more, so);
  remember(more);
  const writer = await NdWriter.append(table, {
    targetFragmentBytes: 64,
    ...(writeParallelism === undefined ? {} : { writeParallelism }),
    ...so,
  });
  const last = [5, 6, 7].map(storeRow);
  for (const b of last) await writer.write(b);
  table = await writer.finish();
  remember(last);

  const reopened = await open(uri, so);
  await expectRows(reopened, model);
  expect(
    await scan(reopened)
      .filterExpr(col(["__global_attrs__", "id"]).eq("r4"))
      .toArray(),
  ).toHaveLength(1);
  expect(await scan(reopened).filterExpr(stat("sst").max.gt(9)).toArray()).toHaveLength(3); // rows 5, 6, 7 have max i + 5 > 9

  expect((await reopened.delete("__global_attrs__.i < 2")).deleted).toBe(2);
  model.delete("r0");
  model.delete("r1");
  await reopened.compact();
  await expectRows(await open(uri, so), model);

  await widen(reopened, "sst", new Float64());
  const widened = await open(uri, so);
  expect(String((await scan(widened).limit(1).toArray())[0]?.get("sst")?.type)).toBe("Float64");
  await expectRows(widened, model, false);

  const old = await widened.checkout(firstVersion);
  expect([...(await rowsById(old)).keys()]).toEqual(["r0", "r1", "r2"]);
  expect((await widened.versions()).length).toBeGreaterThan(4);
  count("versionsRead");

  await widened.restore(firstVersion);
  const restored = await open(uri, so);
  const originals = new Map(first.map((b) => [String(b.globalAttr("id")), plainRow(b)]));
  await expectRows(restored, originals);
}
