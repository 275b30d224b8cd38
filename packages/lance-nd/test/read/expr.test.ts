import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { NdArray, NdRecordBatch, attr } from "@lance-nd/nd-arrow";
import { isLanceNdError } from "../../src/errors.js";
import { col, stat, type Expr } from "../../src/read/expr.js";
import { scan } from "../../src/read/scan.js";
import type { NdTable } from "../../src/table.js";
import { ids, makeTable, tempDir } from "../helpers/make-table.js";

const dir = tempDir("expr");

function code(run: () => unknown): string | undefined {
  try {
    run();
  } catch (err) {
    return isLanceNdError(err) ? err.code : String(err);
  }
  return undefined;
}

describe("toSql", () => {
  it("quotes each name of the path in backticks and each string literal in single quotes", () => {
    expect(col("__global_attrs__.id").eq("a").toSql()).toBe("`__global_attrs__`.`id` = 'a'");
    expect(String(col("__global_attrs__.it's").eq("it's"))).toBe("`__global_attrs__`.`it's` = 'it''s'");
    expect(stat("sst").max.gt(300).toSql()).toBe("`__stats__:sst`.`max` > 300");
    expect(stat("a b:c").min.le(1).toSql()).toBe("`__stats__:a b:c`.`min` <= 1");
  });

  it("an attribute key is taken whole: __global_attrs__.a.b is the key a.b, sst.attrs.x.y the key x.y", () => {
    expect(col("__global_attrs__.a.b").path).toEqual(["__global_attrs__", "a.b"]);
    expect(col("sst.attrs.x.y").path).toEqual(["sst", "attrs", "x.y"]);
    expect(col("sst.values").path).toEqual(["sst", "values"]);
    expect(col(["a", "b.c"]).toSql()).toBe("`a`.`b.c`");
  });

  it("every operator and combinator", () => {
    const x = col("x");
    expect(x.ne(1).toSql()).toBe("`x` <> 1");
    expect(x.lt(1.5).toSql()).toBe("`x` < 1.5");
    expect(x.ge(-0).toSql()).toBe("`x` >= 0");
    expect(x.isNull().toSql()).toBe("`x` IS NULL");
    expect(x.eq(null).toSql()).toBe("`x` IS NULL");
    expect(x.ne(null).toSql()).toBe("`x` IS NOT NULL");
    expect(x.isIn(["a", 2n, true, null]).toSql()).toBe("`x` IN ('a', 2, TRUE, NULL)");
    expect(x.between(1, 2).toSql()).toBe("`x` BETWEEN 1 AND 2");
    expect(x.eq(new Date(Date.UTC(2024, 0, 2))).toSql()).toBe(
      "`x` = arrow_cast('2024-01-02T00:00:00.000Z', 'Timestamp(Millisecond, Some(\"UTC\"))')",
    );
    expect(x.eq(1).and(x.eq(2)).or(x.eq(3).not()).toSql()).toBe("((`x` = 1) AND (`x` = 2)) OR (NOT (`x` = 3))");
  });

  it("a chain of one operator is one flat list, written in groups of 64: 1,000 terms nest 2 parentheses deep", () => {
    let any = col("x").eq(0);
    for (let i = 1; i < 1000; i++) any = any.or(col("x").eq(i));
    const sql = any.toSql();
    let depth = 0;
    let deepest = 0;
    for (const c of sql) {
      depth += c === "(" ? 1 : c === ")" ? -1 : 0;
      deepest = Math.max(deepest, depth);
    }
    expect(deepest).toBe(2);
    expect(sql.match(/`x` = \d+/g)).toHaveLength(1000);
    // A chain extended from the middle does not see the terms of its siblings.
    const base = col("x").eq(1).and(col("x").eq(2));
    base.and(col("x").eq(3));
    expect(base.and(col("x").eq(4)).toSql()).toBe("(`x` = 1) AND (`x` = 2) AND (`x` = 4)");
  });

  it("not is pushed down to the comparisons (De Morgan), not not x is x, and nested chains of one operator merge", () => {
    const [a, b, c] = [col("a").eq(1), col("b").eq(2), col("c").eq(3)];
    expect(a.or(b).not().toSql()).toBe("(NOT (`a` = 1)) AND (NOT (`b` = 2))");
    expect(a.not().not().toSql()).toBe("`a` = 1");
    expect(a.and(b.and(c)).toSql()).toBe("(`a` = 1) AND (`b` = 2) AND (`c` = 3)");
    expect(a.or(b).and(c).toSql()).toBe("((`a` = 1) OR (`b` = 2)) AND (`c` = 3)");
  });

  it("NaN, Infinity, invalid Dates, null comparisons and empty lists are InvalidInput", () => {
    expect(code(() => col("x").eq(Number.NaN))).toBe("InvalidInput");
    expect(code(() => col("x").gt(Number.POSITIVE_INFINITY))).toBe("InvalidInput");
    expect(code(() => col("x").eq(new Date(Number.NaN)))).toBe("InvalidInput");
    expect(code(() => col("x").lt(null))).toBe("InvalidInput");
    expect(code(() => col("x").between(null, 1))).toBe("InvalidInput");
    expect(code(() => col("x").isIn([]))).toBe("InvalidInput");
    expect(code(() => col(""))).toBe("InvalidInput");
    expect(code(() => col("a..b"))).toBe("InvalidInput");
    expect(code(() => stat(""))).toBe("InvalidInput");
    expect(
      code(() =>
        col("x")
          .eq(1)
          .and("x = 1" as unknown as Expr),
      ),
    ).toBe("InvalidInput");
  });
});

// Keys with quotes, spaces, colons, dots and unicode; a variable whose name needs quoting.
const KEYS = {
  quote: "it's",
  dquote: 'say "hi"',
  space: "a b",
  colon: "k:v",
  dot: "a.b",
  unicode: "température",
} as const;

function row(i: number): NdRecordBatch {
  const odd = NdArray.from(Float64Array.from([i, i * 2]), {
    dims: { x: 2 },
    attrs: { "unit's": i % 2 === 0 ? "K" : "C" },
  });
  return new NdRecordBatch(
    { "a b:c": odd },
    {
      id: `r${i}`,
      [KEYS.quote]: `it's ${i}`,
      [KEYS.dquote]: i,
      [KEYS.space]: i % 2 === 0,
      [KEYS.colon]: attr.int64(BigInt(i) * 10n ** 12n),
      [KEYS.dot]: i / 2,
      [KEYS.unicode]: `é${i}`,
      when: new Date(Date.UTC(2024, 0, 1 + i)),
      ...(i === 3 ? {} : { maybe: "set" }),
    },
  );
}

describe("expressions run on a real table and select the right rows", () => {
  let table: NdTable;
  beforeAll(async () => {
    table = await makeTable(
      path.join(dir, "names.lance"),
      Array.from({ length: 6 }, (_, i) => row(i)),
      { stats: true },
    );
  });
  const ga = (key: string) => col(["__global_attrs__", key]);
  const cases: [string, () => Expr, string[]][] = [
    ["eq on a key with a quote", () => ga(KEYS.quote).eq("it's 2"), ["r2"]],
    ["ne on a key with double quotes", () => ga(KEYS.dquote).ne(2), ["r0", "r1", "r3", "r4", "r5"]],
    ["lt on a key with a dot (string path form)", () => col("__global_attrs__.a.b").lt(1), ["r0", "r1"]],
    ["le on a unicode key", () => ga(KEYS.unicode).le("é1"), ["r0", "r1"]],
    ["gt on an Int64 key with a colon, bigint literal", () => ga(KEYS.colon).gt(3n * 10n ** 12n), ["r4", "r5"]],
    [
      "ge on a Timestamp key, Date literal",
      () => col("__global_attrs__.when").ge(new Date(Date.UTC(2024, 0, 5))),
      ["r4", "r5"],
    ],
    ["eq on a boolean key with a space", () => ga(KEYS.space).eq(true), ["r0", "r2", "r4"]],
    ["isNull on a key missing in one row", () => col("__global_attrs__.maybe").isNull(), ["r3"]],
    ["isNotNull", () => col("__global_attrs__.maybe").isNotNull(), ["r0", "r1", "r2", "r4", "r5"]],
    ["isIn", () => col("__global_attrs__.id").isIn(["r1", "r4", "zz"]), ["r1", "r4"]],
    [
      "between on a stats column of a variable named 'a b:c'",
      () => stat("a b:c").max.between(4, 8),
      ["r2", "r3", "r4"],
    ],
    ["variable attribute with a quote in its key", () => col("a b:c.attrs.unit's").eq("C"), ["r1", "r3", "r5"]],
    [
      "and / or / not",
      () =>
        stat("a b:c")
          .min.ge(1)
          .and(stat("a b:c").min.le(2))
          .or(col("__global_attrs__.id").eq("r5"))
          .and(col("__global_attrs__.id").eq("r2").not()),
      ["r1", "r5"],
    ],
  ];
  for (const [name, expr, expected] of cases) {
    it(name, async () => {
      expect(ids(await scan(table).project([]).filterExpr(expr()).toArray())).toEqual(expected);
    });
  }
});
