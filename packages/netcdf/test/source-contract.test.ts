/**
 * The reader contract's shared suite (`sourceContract` of test-helpers)
 * against `openNetcdf` on the ncgen-made ocean files, classic and netCDF-4.
 */
import { sourceContract } from "@lance-nd/test-helpers";
import { beforeAll } from "vitest";
import { openNetcdf } from "../src/index.js";
import { ensureFixtures, fixture, fixtureSkipReason } from "./fixtures.js";

const skip = fixtureSkipReason() !== undefined;
beforeAll(() => {
  if (!skip) ensureFixtures();
});

for (const name of ["ocean-classic.nc", "ocean-nc4.nc"] as const) {
  sourceContract(`openNetcdf(${name})`, () => ({ open: () => openNetcdf(fixture(name)), variable: "sst" }), skip);
}
