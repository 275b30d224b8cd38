// A Date in a filter is an instant (README, "filter, filterExpr,
// lanceFilter"); the full matrix of zones and units is in
// reliability/time-zones.test.ts.
import * as path from "node:path";
import { TimestampMillisecond } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { NdArray, NdRecordBatch, attr } from "@lance-nd/nd-arrow";
import { isLanceNdError } from "../../src/errors.js";
import { col, stat } from "../../src/read/expr.js";
import { scan } from "../../src/read/scan.js";
import { open } from "../../src/table.js";
import { write } from "../../src/write/write.js";
import { ids, tempDir } from "../helpers/make-table.js";

const dir = tempDir("zones");
// 05:30Z and 06:30Z are both 01:30 in New York on 2024-11-03 (the fall-back hour); 10:30Z is 05:30 there.
const INSTANTS = ["2024-11-03T05:30:00Z", "2024-11-03T06:30:00Z", "2024-11-03T10:30:00Z"].map((iso) => new Date(iso));

function row(i: number): NdRecordBatch {
  const type = new TimestampMillisecond("America/New_York");
  return new NdRecordBatch(
    { ts: NdArray.from([INSTANTS[i]!], { dims: { t: 1 }, type }) },
    { id: `r${i}`, when: attr.timestamp("ms", "America/New_York")(INSTANTS[i]!) },
  );
}

describe("Date literals on America/New_York timestamps", () => {
  it("select the row of the same instant, in the fall-back hour too: scan on a stats column and a global attribute, delete", async () => {
    const uri = path.join(dir, "ny.lance");
    await write(uri, [0, 1, 2].map(row), { stats: true });
    const table = await open(uri);
    for (const [i, d] of INSTANTS.entries()) {
      expect(ids(await scan(table).project([]).filterExpr(stat("ts").min.eq(d)).toArray())).toEqual([`r${i}`]);
      expect(ids(await scan(table).project([]).filterExpr(col("__global_attrs__.when").eq(d)).toArray())).toEqual([
        `r${i}`,
      ]);
    }
    expect(await table.delete(col("__global_attrs__.when").eq(INSTANTS[0]!))).toMatchObject({ deleted: 1 });
    expect(ids(await scan(table).project([]).toArray())).toEqual(["r1", "r2"]);
  });

  it("a plain date string against a timestamp is InvalidInput saying to write TIMESTAMP '...', which selects", async () => {
    const uri = path.join(dir, "strings.lance");
    await write(uri, [0, 1, 2].map(row), { stats: true });
    const table = await open(uri);
    const err = await scan(table)
      .filter("`__stats__:ts`.min >= '2024-11-03 07:00:00'")
      .toArray()
      .catch((e: unknown) => e);
    expect(isLanceNdError(err, "InvalidInput")).toBe(true);
    expect((err as Error).message).toContain("(write the time as TIMESTAMP '2024-11-03 07:00:00')");
    const after = scan(table).project([]).filter("`__stats__:ts`.min >= TIMESTAMP '2024-11-03 07:00:00+00:00'");
    expect(ids(await after.toArray())).toEqual(["r2"]);
  });

  it('refuses the zone "+05:30" (Lance cannot store it) with InvalidInput naming the column, before creating the table', async () => {
    const uri = path.join(dir, "offset.lance");
    const err = await write(uri, [new NdRecordBatch({}, { when: attr.timestamp("ms", "+05:30")(new Date(0)) })]).catch(
      (e: unknown) => e,
    );
    expect(isLanceNdError(err, "InvalidInput") && err.column).toBe("__global_attrs__");
    expect(await open(uri).catch((e: unknown) => isLanceNdError(e, "TableNotFound"))).toBe(true);
  });
});
