/** The check that an array read from a store is laid out as the fixture's answer says. */
import type { NdArray } from "@lance-nd/nd-arrow";
import { expect } from "vitest";

/** Checks that `got` has `want`'s dims (by name, in order) and shape; `name` labels the checks. */
export function expectLayout(
  got: NdArray,
  want: { dims: readonly string[]; shape: readonly number[] },
  name: string,
): void {
  expect(
    got.dims.map((d) => d.name),
    name,
  ).toEqual(want.dims);
  expect(got.shape, name).toEqual(want.shape);
}
