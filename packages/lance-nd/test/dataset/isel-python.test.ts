/**
 * `isel` takes indices as Python does (README, "Datasets"): negative
 * indices count from the end, slice ends past the dim are clamped, a stop
 * before the start keeps nothing. Checked against Python's own `range(n)[i]`
 * and `range(n)[a:b]` on seeded indices, across chunk boundaries.
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { seededRandom } from "@lance-nd/test-helpers";
import { dataset } from "../../src/dataset/dataset.js";
import { isLanceNdError } from "../../src/errors.js";
import { tempDir } from "../helpers/make-table.js";
import { sstBatch, writeChunked } from "./fixture.js";

/** What Python's `range(size)` gives for each index (`null`: IndexError) and slice. */
function python(
  size: number,
  indices: number[],
  slices: [number, number][],
): { at: (number | null)[]; cut: number[][] } {
  const script = `import json, sys
size, indices, slices = json.loads(sys.argv[1])
def at(i):
    try:
        return range(size)[i]
    except IndexError:
        return None
print(json.dumps({"at": [at(i) for i in indices], "cut": [list(range(size)[a:b]) for a, b in slices]}))`;
  const out = execFileSync("/usr/bin/python3", ["-c", script, JSON.stringify([size, indices, slices])], {
    encoding: "utf8",
  });
  return JSON.parse(out) as { at: (number | null)[]; cut: number[][] };
}

describe("isel takes indices as Python does", () => {
  it("60 seeded indices and slices along lon (8 cells in chunks of 3) select what range(8) selects", async () => {
    const ds = await dataset(await writeChunked(`${tempDir("isel")}/isel.lance`, sstBatch(), { lon: 3 }));
    const random = seededRandom(31);
    const next = (lo: number, hi: number): number => lo + Math.floor(random() * (hi - lo + 1));
    const indices = Array.from({ length: 60 }, () => next(-10, 9));
    const slices = Array.from({ length: 60 }, (): [number, number] => [next(-11, 11), next(-11, 11)]);
    const want = python(8, indices, slices);
    const lonIndices = async (spec: number | [number, number]) => {
      const lon = (await ds.isel({ lon: spec }).read(["lon"])).get("lon")!;
      return { shape: lon.shape, cells: Array.from(lon.values as Iterable<number>, (v) => v / 45) };
    };
    for (const [k, index] of indices.entries()) {
      const expected = want.at[k];
      if (expected === null) {
        const err = await ds
          .isel({ lon: index })
          .read(["lon"])
          .catch((e: unknown) => e);
        expect(isLanceNdError(err, "InvalidInput") && err.message, `lon=${index}`).toContain(
          `index ${index} along "lon" is out of range for size 8`,
        );
      } else expect(await lonIndices(index), `lon=${index}`).toEqual({ shape: [], cells: [expected] });
    }
    for (const [k, [a, b]] of slices.entries()) {
      const cut = want.cut[k]!;
      expect(await lonIndices([a, b]), `lon=${a}:${b}`).toEqual({ shape: [cut.length], cells: cut });
    }
  });
});
