// Time zones: a Date in a filter, and a TIMESTAMP
// literal with a zone in SQL, is an instant. On real
// tables with timestamp variables (with stats) and timestamp global
// attributes in several zones and units, every comparison, scan filter and
// deleteRows selects exactly the rows whose instant matches, also for the
// two instants of a daylight-saving fall-back hour that share one wall-clock
// time. A zone Lance cannot store ("+05:30") is refused before any write.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TimestampMicrosecond, TimestampMillisecond, TimestampNanosecond, TimestampSecond } from "apache-arrow";
import type { Timestamp } from "apache-arrow";
import { afterAll, describe, expect, it } from "vitest";
import { NdArray, NdRecordBatch, attr } from "@lance-nd/nd-arrow";
import { col, isLanceNdError, open, scan, stat, write, type Expr, type NdTable } from "lance-nd";
import { count } from "./helpers/counters.js";

const dir = mkdtempSync(join(tmpdir(), "lance-nd-zones-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ms = (iso: string): number => Date.parse(iso);

// Instants (whole seconds, so every unit holds them exactly). 05:30Z and
// 06:30Z are both 01:30 in New York on 2024-11-03; 00:30Z and 01:30Z are both
// 02:30 in Paris on 2024-10-27. 10:30Z is 05:30 New York time: the row a
// zone-less `TIMESTAMP '…05:30Z'` literal used to hit there.
const INSTANTS = [
  ms("2024-11-03T05:30:00Z"),
  ms("2024-11-03T06:30:00Z"),
  ms("2024-11-03T10:30:00Z"),
  ms("2024-10-27T00:30:00Z"),
  ms("2024-10-27T01:30:00Z"),
  ms("2024-10-27T02:30:00Z"),
  ms("2024-06-01T12:00:00Z"),
  ms("2024-06-01T17:30:00Z"),
];

const ZONES = [null, "UTC", "America/New_York", "Europe/Paris", "Asia/Kolkata", "+0530"] as const;
const UNITS: Array<[string, (zone: string | null) => Timestamp, "s" | "ms" | "us" | "ns"]> = [
  ["s", (z) => new TimestampSecond(z), "s"],
  ["ms", (z) => new TimestampMillisecond(z), "ms"],
  ["us", (z) => new TimestampMicrosecond(z), "us"],
  ["ns", (z) => new TimestampNanosecond(z), "ns"],
];

/** Row `i`: variable `ts` = [instant i] in `type` (so its stats min and max are instant i), global attribute `when` = instant i. */
function row(i: number, type: Timestamp, unit: "s" | "ms" | "us" | "ns", zone: string | null): NdRecordBatch {
  const when = attr.timestamp(unit, zone ?? undefined)(new Date(INSTANTS[i]!));
  return new NdRecordBatch(
    { ts: NdArray.from([new Date(INSTANTS[i]!)], { dims: { t: 1 }, type }) },
    { id: `r${i}`, when },
  );
}

async function idsOf(table: NdTable, filter: Expr): Promise<string[]> {
  const rows = await scan(table).project([]).filterExpr(filter).toArray();
  count("rowsVerified", rows.length);
  return rows.map((r) => String(r.globalAttr("id"))).sort();
}

function expected(pick: (instant: number) => boolean): string[] {
  return INSTANTS.flatMap((t, i) => (pick(t) ? [`r${i}`] : [])).sort();
}

describe("a Date in a filter is an instant, whatever the column's time zone", () => {
  for (const zone of ZONES) {
    for (const [unitName, typeOf, unit] of UNITS) {
      it(`zone ${zone ?? "none"}, unit ${unitName}: eq / lt / ge / between / isIn and SQL TIMESTAMP literals on a variable's stats and a global attribute, then deleteRows`, async () => {
        const uri = join(dir, `${zone ?? "none"}-${unitName}.lance`.replace(/[^A-Za-z0-9_.-]/g, "_"));
        const type = typeOf(zone);
        await write(
          uri,
          INSTANTS.map((_, i) => row(i, type, unit, zone)),
          { stats: true },
        );
        const table = await open(uri);
        const fields = [col("__global_attrs__.when"), stat("ts").min, stat("ts").max];
        for (const [k, instant] of INSTANTS.entries()) {
          const d = new Date(instant);
          for (const field of fields) {
            expect(await idsOf(table, field.eq(d)), `${String(field)} = instant ${k}`).toEqual([`r${k}`]);
            expect(await idsOf(table, field.lt(d)), `${String(field)} < instant ${k}`).toEqual(
              expected((t) => t < instant),
            );
            expect(await idsOf(table, field.ge(d)), `${String(field)} >= instant ${k}`).toEqual(
              expected((t) => t >= instant),
            );
          }
        }
        // The same through SQL (filter, deleteRows and the CLI's --where): a TIMESTAMP literal with a zone is an instant.
        const sqlIds = async (sql: string) =>
          (await scan(table).project([]).filter(sql).toArray()).map((r) => String(r.globalAttr("id"))).sort();
        for (const [k, instant] of INSTANTS.entries()) {
          expect(
            await sqlIds(`__global_attrs__.when = TIMESTAMP '${new Date(instant).toISOString()}'`),
            `SQL = instant ${k}`,
          ).toEqual([`r${k}`]);
          expect(await sqlIds(`__stats__:ts.max < TIMESTAMP '${new Date(instant).toISOString()}'`)).toEqual(
            expected((t) => t < instant),
          );
        }
        // Both 01:30 of the New York fall-back night, told apart by their offsets.
        expect(await sqlIds("__global_attrs__.when = TIMESTAMP '2024-11-03T01:30:00-04:00'")).toEqual(["r0"]);
        expect(await sqlIds("__global_attrs__.when = TIMESTAMP '2024-11-03 01:30:00-0500'")).toEqual(["r1"]);

        const [a, b] = [new Date(INSTANTS[0]!), new Date(INSTANTS[1]!)];
        expect(await idsOf(table, col("__global_attrs__.when").between(a, b))).toEqual(["r0", "r1"]);
        expect(await idsOf(table, stat("ts").max.isIn([b, new Date(INSTANTS[4]!)]))).toEqual(["r1", "r4"]);

        // The first 01:30 of the New York fall-back hour, then the second 02:30 of Paris's.
        expect(await table.delete(col("__global_attrs__.when").eq(a))).toMatchObject({ deleted: 1 });
        expect(
          await table.delete(`__stats__:ts.min = TIMESTAMP '${new Date(INSTANTS[4]!).toISOString()}'`),
        ).toMatchObject({ deleted: 1 });
        const left = await scan(table).project([]).toArray();
        expect(left.map((r) => r.globalAttr("id")).sort()).toEqual(["r1", "r2", "r3", "r5", "r6", "r7"]);
        for (const r of left) {
          const i = Number(String(r.globalAttr("id")).slice(1));
          expect(Number(r.globalAttr("when")), `row r${i} kept its instant (epoch ms)`).toBe(INSTANTS[i]);
        }
        count("rowsVerified", left.length);
      });
    }
  }
});

describe("a time zone Lance cannot store is refused before any write", () => {
  const offsetZones: Array<[string, () => NdRecordBatch, string, string]> = [
    [
      "a variable",
      () =>
        new NdRecordBatch({
          ts: NdArray.from([new Date(0)], { dims: { t: 1 }, type: new TimestampMillisecond("+05:30") }),
        }),
      "ts",
      "variable",
    ],
    [
      "a global attribute",
      () => new NdRecordBatch({}, { when: attr.timestamp("ms", "+05:30")(new Date(0)) }),
      "__global_attrs__",
      "global attribute",
    ],
  ];
  for (const [name, make, column, place] of offsetZones) {
    it(`"+05:30" in ${name}: InvalidInput naming the column; no table is created, an existing one is unchanged`, async () => {
      const uri = join(dir, `offset-${column}.lance`);
      const err = await write(uri, [make()]).catch((e: unknown) => e);
      expect(isLanceNdError(err, "InvalidInput"), String(err)).toBe(true);
      expect((err as { column?: string }).column).toBe(column);
      expect(String((err as Error).message)).toContain(`${place}`);
      expect(String((err as Error).message)).toContain('"+0530"');
      expect(existsSync(uri)).toBe(false);
      count("badInputs");

      await write(uri, [new NdRecordBatch({}, { id: "kept" })]);
      const before = await open(uri);
      const version = await before.version();
      const again = await write(uri, [make()], { mode: "append" }).catch((e: unknown) => e);
      expect(isLanceNdError(again, "InvalidInput"), String(again)).toBe(true);
      const after = await open(uri);
      expect(await after.version()).toBe(version);
      expect((await scan(after).toArray()).map((r) => r.globalAttr("id"))).toEqual(["kept"]);
      count("badInputs");
    });
  }
});
