import { describe, expect, it } from "vitest";
import { NdArray, NdRecordBatch, encodeSchema } from "@lance-nd/nd-arrow";
import { tableSchema, validateTableSchema } from "@lance-nd/format";
import { isLanceNdError } from "../../src/errors.js";
import { checkNdFilter, referencedColumns } from "../../src/read/nd-filter.js";
import { readAhead } from "../../src/read/read-ahead.js";
import { batchRows, planRead } from "../../src/read/read-plan.js";

const layout = validateTableSchema(
  tableSchema(
    encodeSchema([
      new NdRecordBatch(
        {
          sst: NdArray.from(new Float32Array(2), { dims: { x: 2 }, attrs: { units: "K" } }),
          time: NdArray.from(new Float64Array(2), { dims: { x: 2 } }),
          "a b": NdArray.from(new Int32Array(2), { dims: { x: 2 } }),
        },
        { id: "a", "it's": 1 },
      ),
    ]),
    { stats: true },
  ),
);

function code(run: () => unknown): string | undefined {
  try {
    run();
  } catch (err) {
    return isLanceNdError(err) ? `${err.code} ${err.column ?? ""}`.trim() : String(err);
  }
  return undefined;
}

const nd = (sql: string) => checkNdFilter("t", layout, sql).sql;

describe("nd filters", () => {
  it("quote each column reference with the table's spelling; strings, numbers, keywords, functions and types stay", () => {
    expect(nd("__global_attrs__.id = 'sst' AND __stats__:sst.max > 1.5e3")).toBe(
      "`__global_attrs__`.`id` = 'sst' AND `__stats__:sst`.`max` > 1.5e3",
    );
    expect(nd("NOT (sst IS NULL) OR time.values IS NOT NULL")).toBe(
      "NOT (`sst` IS NULL) OR `time`.`values` IS NOT NULL",
    );
    expect(nd("CAST(__stats__:time.min AS BIGINT) BETWEEN 1 AND 2")).toBe(
      "CAST(`__stats__:time`.`min` AS BIGINT) BETWEEN 1 AND 2",
    );
    expect(nd('`a b` IS NULL AND "__global_attrs__".`it\'s` IN (1, 2)')).toBe(
      "`a b` IS NULL AND `__global_attrs__`.`it's` IN (1, 2)",
    );
    expect(nd("__stats__:time.min > TIMESTAMP '2024-01-01 00:00:00'")).toBe(
      "`__stats__:time`.`min` > TIMESTAMP '2024-01-01 00:00:00'",
    );
    // A TIMESTAMP with a zone is an instant (SDK-NOTES.md section 9; reliability/time-zones.test.ts).
    expect(nd("__stats__:time.min > TIMESTAMP '2024-01-01T00:00:00Z'")).toBe(
      "`__stats__:time`.`min` > arrow_cast('2024-01-01T00:00:00Z', 'Timestamp(Nanosecond, Some(\"UTC\"))')",
    );
    expect(nd("array_has(sst.dim_names, 'x') AND __global_attrs__.id LIKE 'a%'")).toBe(
      "array_has(`sst`.`dim_names`, 'x') AND `__global_attrs__`.`id` LIKE 'a%'",
    );
  });

  it("unknown columns and nested fields are InvalidInput naming them; unterminated quotes too", () => {
    expect(code(() => nd("zz = 1"))).toBe("InvalidInput zz");
    expect(code(() => nd("sst.attrs.nope = 'K'"))).toBe("InvalidInput sst.attrs.nope");
    expect(code(() => nd("__stats__:a b.max > 1"))).toBe("InvalidInput __stats__:a");
    expect(code(() => nd("__global_attrs__.id = 'a"))).toBe("InvalidInput");
    expect(code(() => nd("`sst = 1"))).toBe("InvalidInput");
    expect(code(() => nd(""))).toBe("InvalidInput");
  });

  it("referencedColumns lists the top-level names of a Lance filter as written", () => {
    expect([...referencedColumns("t", "`__stats__:sst`.max > 1 AND x.y = 'z'")]).toEqual(["__stats__:sst", "x"]);
  });
});

describe("planRead", () => {
  const plan = (projection: string[] | undefined, filter?: string, kind: "nd" | "lance" = "nd") =>
    planRead("t", layout, { projection, conditions: filter === undefined ? [] : [{ kind, sql: filter }] });

  it("variables projected, no filter or a filter on small columns only: may read by takes", () => {
    expect(plan(["sst"], "__global_attrs__.id = 'a'")).toEqual({
      columns: ["sst", "__global_attrs__"],
      filter: "`__global_attrs__`.`id` = 'a'",
      takeable: true,
      filterPaths: ["__global_attrs__.id"],
    });
    expect(plan(["sst"]).takeable).toBe(true);
    expect(plan(undefined, "__stats__:sst.max > 3").takeable).toBe(true);
    expect(plan(["sst"], "time IS NULL").takeable).toBe(true);
    expect(plan(["sst"], "`__global_attrs__`.id = 'a'", "lance")).toMatchObject({
      takeable: true,
      filterPaths: undefined,
    });
  });

  it("a filter that touches a projected variable, or no projected variable: one scan", () => {
    expect(plan(["sst"], "sst.attrs.units = 'K'").takeable).toBe(false);
    expect(plan(undefined, "time IS NULL").takeable).toBe(false);
    expect(plan(["sst"], "sst IS NULL", "lance").takeable).toBe(false);
    expect(plan([], "__global_attrs__.id = 'a'")).toMatchObject({ columns: ["__global_attrs__"], takeable: false });
  });

  it("conditions join with AND", () => {
    const both = planRead("t", layout, {
      projection: [],
      conditions: [
        { kind: "nd", sql: "sst IS NULL" },
        { kind: "lance", sql: "x = 1" },
      ],
    });
    expect(both.filter).toBe("(`sst` IS NULL) AND (x = 1)");
  });
});

describe("batchRows", () => {
  it("at most batchSize rows and about batchSizeBytes, at least one row", () => {
    const MiB = 2 ** 20;
    expect(batchRows(256, 32 * MiB, MiB)).toBe(32);
    expect(batchRows(256, 32 * MiB, 100)).toBe(256);
    expect(batchRows(256, 32 * MiB, 100 * MiB)).toBe(1);
    expect(batchRows(256, 32 * MiB, 0)).toBe(256);
  });
});

describe("readAhead", () => {
  async function* numbers(log: string[], n: number, failAt = -1): AsyncGenerator<number> {
    try {
      for (let i = 0; i < n; i++) {
        log.push(`read ${i}`);
        if (i === failAt) throw new Error(`fail ${i}`);
        yield i;
      }
    } finally {
      log.push("closed");
    }
  }

  it("reads `depth` items ahead of the consumer and maps them as they arrive", async () => {
    const log: string[] = [];
    const out: number[] = [];
    for await (const v of readAhead(numbers(log, 5), 2, (x) => x * 10)) {
      log.push(`use ${v}`);
      out.push(v);
    }
    expect(out).toEqual([0, 10, 20, 30, 40]);
    expect(log.slice(0, 4)).toEqual(["read 0", "read 1", "read 2", "use 0"]);
  });

  it("an async map (a take) runs for at most depth + 1 items at once, results in order", async () => {
    let running = 0;
    let most = 0;
    const slowTake = async (x: number): Promise<number> => {
      most = Math.max(most, ++running);
      await new Promise((resolve) => setTimeout(resolve, (5 - x) * 2));
      running--;
      return x * 10;
    };
    const out: number[] = [];
    for await (const v of readAhead(numbers([], 5), 2, slowTake)) out.push(v);
    expect(out).toEqual([0, 10, 20, 30, 40]);
    expect(most).toBe(3);
  });

  it("an error surfaces at its item; stopping early closes the source", async () => {
    const log: string[] = [];
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const v of readAhead(numbers(log, 5, 2), 3, (x) => x)) seen.push(v);
      })(),
    ).rejects.toThrow("fail 2");
    expect(seen).toEqual([0, 1]);
    const early: string[] = [];
    for await (const v of readAhead(numbers(early, 100), 1, (x) => x)) if (v === 1) break;
    expect(early.at(-1)).toBe("closed");
    expect(early.filter((l) => l.startsWith("read")).length).toBeLessThanOrEqual(3);
  });
});
