/**
 * The reader contract's shared suite (nd-arrow README "The reader
 * contract", the `NdSource` type): each package runs it against its own
 * reader on real files, as xarray's backends share one base test class.
 * It checks what every caller of an `NdSource` relies on, from the
 * source's own whole reads: selections, the dims an index drops, the
 * error codes, rows that place back into the whole, each variable's
 * stored type and bytes, and its row plans.
 */
import type { NdArray, NdSource } from "@lance-nd/nd-arrow";
import { describe, expect, it } from "vitest";

/** What the suite reads: a variable of at least two dims whose first dim has at least three cells. */
export interface SourceContractCase {
  /** Opens a fresh source (the suite closes it). */
  open(): Promise<NdSource>;
  /** The variable the selections read. */
  variable: string;
}

/** Registers the contract's tests for the source `name` opens (a `describe` block, skipped with `skip`). */
export function sourceContract(name: string, source: () => SourceContractCase, skip = false): void {
  describe.skipIf(skip)(`${name}: the NdSource contract`, () => {
    const withSource = async (test: (opened: NdSource, variable: string) => Promise<void>) => {
      const { open, variable } = source();
      const opened = await open();
      try {
        await test(opened, variable);
      } finally {
        await opened.close();
      }
    };

    it("every variable's dims are dims of the source, with the same sizes; a whole read has them and the variable's attributes", () =>
      withSource(async (opened) => {
        const sizes = new Map(opened.dims.map((d) => [d.name, d.size]));
        for (const v of opened.variables) {
          for (const d of v.dims) expect(sizes.get(d.name), `${v.name}: ${d.name}`).toBe(d.size);
        }
        const [first] = opened.variables;
        const whole = await opened.read(first!.name);
        expect(whole.dims).toEqual(first!.dims);
        expect([...whole.attrs.keys()].sort()).toEqual([...first!.attrs.keys()].sort());
      }));

    it("a range keeps the dim and equals the whole read's cells; a negative start counts from the end", () =>
      withSource(async (opened, variable) => {
        const whole = await opened.read(variable);
        const [dim, size] = [whole.dims[0]!.name, whole.dims[0]!.size];
        const part = await opened.read(variable, { [dim]: [1, 3] });
        expect(part.dims).toEqual([{ name: dim, size: 2 }, ...whole.dims.slice(1)]);
        expect(valuesOf(part)).toEqual(cut(whole, 1, 3));
        const tail = await opened.read(variable, { [dim]: [-2, size] });
        expect(valuesOf(tail)).toEqual(cut(whole, size - 2, size));
      }));

    it("an index drops its dim", () =>
      withSource(async (opened, variable) => {
        const whole = await opened.read(variable);
        const one = await opened.read(variable, { [whole.dims[0]!.name]: 2 });
        expect(one.dims).toEqual(whole.dims.slice(1));
        expect(valuesOf(one)).toEqual(cut(whole, 2, 3));
      }));

    it("an unknown variable is VariableNotFound, an unknown dim DimNotFound, an index outside its dim the bad-input code", () =>
      withSource(async (opened, variable) => {
        await expect(opened.read("no-such-variable")).rejects.toMatchObject({ code: "VariableNotFound" });
        await expect(opened.read(variable, { "no-such-dim": 0 })).rejects.toMatchObject({ code: "DimNotFound" });
        const [first] = (await opened.read(variable)).dims;
        await expect(opened.read(variable, { [first!.name]: first!.size })).rejects.toMatchObject({
          code: expect.stringMatching(/^(InvalidArgument|InvalidInput)$/),
        });
      }));

    it("rows cut along the first dim hold, at their chunk_offset, the whole read's cells", () =>
      withSource(async (opened, variable) => {
        const whole = await opened.read(variable);
        const dim = whole.dims[0]!.name;
        let covered = 0;
        for await (const row of opened.chunks({ [dim]: 2 })) {
          const offsets = row.globalAttr("chunk_offset") as number[];
          const start = offsets[row.grid().findIndex((d) => d.name === dim)]!;
          const part = row.get(variable)!;
          expect(valuesOf(part)).toEqual(cut(whole, start, start + part.dims[0]!.size));
          covered += part.dims[0]!.size;
        }
        expect(covered).toBe(whole.dims[0]!.size);
      }));

    it("each variable's valueType is its whole read's type and its bytes hold its cells; warnings are lines", () =>
      withSource(async (opened) => {
        expect(opened.warnings.every((w) => typeof w === "string")).toBe(true);
        for (const v of opened.variables) {
          const cells = v.dims.reduce((n, d) => n * d.size, 1);
          expect(v.bytes, v.name).toBeGreaterThanOrEqual(cells === 0 ? 0 : cells / 8);
          if (v.valueType === undefined) continue;
          const whole = await opened.read(v.name);
          expect(String(whole.type), v.name).toBe(String(v.valueType));
        }
      }));

    it("rowPlan: one row within a budget far over the source's bytes, a count that is the rows it yields, rows by sizes at their chunk_offset", () =>
      withSource(async (opened, variable) => {
        const whole = await opened.read(variable);
        const total = opened.variables.reduce((n, v) => n + v.bytes, 0);
        // Far over: a reader keeps whole storage blocks in a row (a Zarr store's rows stay on its chunk grid).
        const fits = opened.rowPlan(Math.max(2 ** 30, 64 * total));
        expect([fits.count, fits.cut]).toEqual([1, undefined]);
        expect(await countRows(fits.rows())).toBe(1);
        const small = opened.rowPlan(2 ** 10);
        expect(await countRows(small.rows())).toBe(small.count);
        const dim = whole.dims[0]!.name;
        const bySizes = opened.rowPlan(2 ** 10, { [dim]: 2 });
        expect(bySizes.count).toBe(Math.ceil(whole.dims[0]!.size / 2));
        let rows = 0;
        for await (const row of bySizes.rows()) {
          const offsets = row.globalAttr("chunk_offset") as number[];
          const start = offsets[row.grid().findIndex((d) => d.name === dim)]!;
          const part = row.get(variable)!;
          expect(valuesOf(part)).toEqual(cut(whole, start, start + part.dims[0]!.size));
          rows++;
        }
        expect(rows).toBe(bySizes.count);
      }));
  });
}

/** The number of rows `rows` yields. */
async function countRows(rows: AsyncIterable<unknown>): Promise<number> {
  let n = 0;
  for await (const _ of rows) n++;
  return n;
}

/** The values of `array`, in row-major order. */
function valuesOf(array: NdArray): unknown[] {
  return Array.from(array.values as Iterable<unknown>);
}

/** The cells of `whole` from `start` to `stop` along its first dim, in row-major order. */
function cut(whole: NdArray, start: number, stop: number): unknown[] {
  const inner = whole.dims.slice(1).reduce((n, d) => n * d.size, 1);
  return valuesOf(whole).slice(start * inner, stop * inner);
}
