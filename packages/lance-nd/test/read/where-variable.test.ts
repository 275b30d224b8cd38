/**
 * A filter that compares a variable with a value (`sst > 300`) is one line
 * saying that the column is a variable and which stats filter does what
 * was meant, not Lance's dump of the variable's struct type; the filters it
 * suggests run.
 */
import { describe, expect, it } from "vitest";
import { isLanceNdError } from "../../src/errors.js";
import { scan } from "../../src/read/scan.js";
import { sstBatch, writeChunked } from "../dataset/fixture.js";
import { tempDir } from "../helpers/make-table.js";

describe("filter on a variable", () => {
  it("sst > 300: names sst as a variable and shows the stats filters, which run", async () => {
    const table = await writeChunked(`${tempDir("where-variable")}/sst.lance`, sstBatch(), { time: 4 });
    const err = await scan(table)
      .filter("sst > 3000")
      .toArray()
      .catch((e: unknown) => e);
    expect(isLanceNdError(err, "InvalidInput"), String(err)).toBe(true);
    const message = (err as Error).message;
    expect(message).toMatch(
      /scan failed: "sst" is a variable \(each row holds an array of its values\), so `sst` > 3000 compares no value; filter rows by its stats: `__stats__:sst`\.min > 3000 \(every value of the row\) or `__stats__:sst`\.max > 3000 \(some value\)$/,
    );
    expect(message).not.toContain("Struct");
    const min = await scan(table).filter("`__stats__:sst`.min > 3000").toArray();
    const max = await scan(table).filter("`__stats__:sst`.max > 3000").toArray();
    // Rows of 4 steps, values 1000 t + 10 y + x: every row holds some value past 3000 (step 3 is in the first),
    // only the rows of steps 4-7 and 8-11 hold nothing else.
    expect([min.length, max.length]).toEqual([2, 3]);
  });
});
