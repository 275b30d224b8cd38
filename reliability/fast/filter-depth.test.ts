// Filter expressions of any shape: Lance's SQL parser
// stops near 50 levels of recursion, and an expression that nested one level
// per `and` / `or` switch or per `not` failed there. Every tree below, of up
// to 10,000 comparisons, either selects exactly the rows a JavaScript
// evaluation of the same predicate selects (SQL's three-valued logic: a
// comparison with a missing value is unknown) from a real table, or is
// refused with InvalidInput naming the limit before Lance sees it (a deep
// alternation of 10,000 comparisons would need about 57,000 in a shallow
// form, which Lance cannot plan).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { seededRandom } from "@lance-nd/test-helpers";
import { col, type Expr, isLanceNdError, type NdTable, scan, write } from "lance-nd";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { count } from "../helpers/counters.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lance-nd-filter-depth-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const ROWS = 40;
/** Row i's `n`: missing (null) for every seventh row. */
const nOf = (i: number): number | null => (i % 7 === 3 ? null : i);

/** A predicate as an Expr, and its value on each row by JavaScript (true, false or null: unknown), computed as the tree is built. */
interface Predicate {
  expr: Expr;
  values: (boolean | null)[];
}

const n = col("__global_attrs__.n");
const and = (a: boolean | null, b: boolean | null) =>
  a === false || b === false ? false : a === null || b === null ? null : true;
const or = (a: boolean | null, b: boolean | null) =>
  a === true || b === true ? true : a === null || b === null ? null : false;
const rows = Array.from({ length: ROWS }, (_, i) => nOf(i));

/** A comparison of `n` with `k`: `<`, `=` or `>=`, chosen by `k`. */
function leaf(k: number): Predicate {
  const v = k % ROWS;
  const on = (test: (x: number) => boolean) => rows.map((x) => (x === null ? null : test(x)));
  if (k % 3 === 0) return { expr: n.lt(v), values: on((x) => x < v) };
  if (k % 3 === 1) return { expr: n.eq(v), values: on((x) => x === v) };
  return { expr: n.ge(v), values: on((x) => x >= v) };
}

function both(a: Predicate, b: Predicate): Predicate {
  return { expr: a.expr.and(b.expr), values: a.values.map((x, i) => and(x, b.values[i]!)) };
}
function either(a: Predicate, b: Predicate): Predicate {
  return { expr: a.expr.or(b.expr), values: a.values.map((x, i) => or(x, b.values[i]!)) };
}
function negated(a: Predicate): Predicate {
  return { expr: a.expr.not(), values: a.values.map((x) => (x === null ? null : !x)) };
}

/** `a.or(b).and(c).or(d)…`: one more level per switch, built left-deep as a user chains calls. */
function alternatingChain(leaves: number, seed: number): Predicate {
  let p = leaf(seed);
  for (let i = 1; i < leaves; i++) p = i % 2 === 1 ? either(p, leaf(seed + i * 7)) : both(p, leaf(seed + i * 7));
  return p;
}

/** `a.and(b.or(c.and(d.or(…))))`: the same depth, nested on the right as a user builds from the inside out. */
function nestedOnTheRight(leaves: number): Predicate {
  let p = leaf(leaves);
  for (let i = leaves - 1; i > 0; i--) p = i % 2 === 0 ? both(leaf(i * 5), p) : either(leaf(i * 5), p);
  return p;
}

/** `a.op(b).op(c)…` with one operator. */
function chain(leaves: number, op: (a: Predicate, b: Predicate) => Predicate): Predicate {
  let p = leaf(0);
  for (let i = 1; i < leaves; i++) p = op(p, leaf(i * 11 + (op === either ? 1 : 2)));
  return p;
}

/** Random trees: a pool of comparisons combined at random with and, or and not until one tree is left. */
function randomTree(leaves: number, random: () => number): Predicate {
  const pool: Predicate[] = Array.from({ length: leaves }, (_, i) => leaf(Math.floor(random() * 1000) + i));
  while (pool.length > 1) {
    // Mostly the newest tree with another: deep trees, as chained calls make them.
    const i = random() < 0.8 ? pool.length - 1 : Math.floor(random() * pool.length);
    const [a] = pool.splice(i, 1);
    const [b] = pool.splice(Math.floor(random() * pool.length), 1);
    let p = random() < 0.5 ? both(a!, b!) : either(a!, b!);
    if (random() < 0.2) p = negated(p);
    pool.push(p);
  }
  return pool[0]!;
}

let table: NdTable;
beforeAll(async () => {
  const batches = Array.from({ length: ROWS }, (_, i) => {
    const globals: Record<string, unknown> = { id: `r${i}` };
    const value = nOf(i);
    if (value !== null) globals.n = value;
    return new NdRecordBatch({ a: NdArray.from([i], { dims: { x: 1 } }) }, globals as Record<string, string | number>);
  });
  table = await write(path.join(dir, "depth.lance"), batches);
});

/** The ids the table's scan selects with the predicate, and the ids the JavaScript evaluation selects. */
async function selected(p: Predicate): Promise<{ lance: string[]; js: string[] }> {
  const lance = (await scan(table).project([]).filterExpr(p.expr).toArray()).map((r) => String(r.globalAttr("id")));
  const js = p.values.flatMap((value, i) => (value === true ? [`r${i}`] : []));
  count("rowsVerified", ROWS);
  return { lance: lance.sort(), js: js.sort() };
}

describe("filter expressions of any shape select the rows their logic selects", () => {
  it.each([
    ["a.or(b).and(c)… with 100 comparisons", () => alternatingChain(100, 1)],
    ["a.or(b).and(c)… with 1,000 comparisons", () => alternatingChain(1_000, 2)],
    ["a.and(b.or(c.and(…))) with 1,000 comparisons", () => nestedOnTheRight(1_000)],
    ["a.or(b).or(c)… with 10,000 comparisons", () => chain(10_000, either)],
    ["a.and(b).and(c)… with 10,000 comparisons", () => chain(10_000, both)],
  ])("%s", async (_, make) => {
    const { lance, js } = await selected(make());
    expect(lance).toEqual(js);
  });

  it.each([
    ["a.or(b).and(c)…", () => alternatingChain(10_000, 2)],
    ["a.and(b.or(c.and(…)))", () => nestedOnTheRight(10_000)],
  ])("%s with 10,000 comparisons: InvalidInput naming the depth limit, before any Lance call", (_, make) => {
    const p = make();
    let error: unknown;
    try {
      p.expr.toSql();
    } catch (err) {
      error = err;
    }
    expect(isLanceNdError(error, "InvalidInput"), String(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /nests \d+ levels deep .* over the limit of 40 that Lance's SQL parser takes/,
    );
    count("badInputs");
  });

  it("10,000 not() calls around an alternating chain, and not() at every level of one", async () => {
    let p = alternatingChain(50, 3);
    for (let i = 0; i < 10_000; i++) p = negated(p);
    let q = leaf(1);
    for (let i = 2; i < 200; i++) q = negated(i % 2 === 0 ? both(q, leaf(i)) : either(q, leaf(i)));
    for (const predicate of [p, q]) {
      const { lance, js } = await selected(predicate);
      expect(lance).toEqual(js);
    }
  });

  it("random trees of 20 to 5,000 comparisons: the same rows, or InvalidInput naming the limit before any Lance call (never for 200 or fewer)", async () => {
    const random = seededRandom(13_013);
    const refused: number[] = [];
    for (const leaves of [20, 200, 1_000, 5_000]) {
      for (let run = 0; run < 3; run++) {
        const p = randomTree(leaves, random);
        let sql: string;
        try {
          sql = p.expr.toSql();
        } catch (err) {
          expect(isLanceNdError(err, "InvalidInput"), String(err)).toBe(true);
          expect((err as Error).message).toMatch(/over the limit of 40 that Lance's SQL parser takes/);
          refused.push(leaves);
          continue;
        }
        expect(sql.length).toBeGreaterThan(0);
        const { lance, js } = await selected(p);
        expect(lance, `${leaves} comparisons, run ${run}`).toEqual(js);
      }
    }
    // Seeded: the trees of 1,000 and 5,000 comparisons that nest 68-116 deep are half refused (their shallow forms nest 44-54).
    expect(refused.filter((leaves) => leaves <= 200)).toEqual([]);
    count("badInputs", refused.length);
  });
});
