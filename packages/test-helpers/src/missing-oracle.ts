/**
 * The rule every test that needs an outside oracle (a Python module, a
 * netCDF-C tool, a real file) follows when it is missing: outside CI the tests
 * skip with the reason printed; under `CI=true` they run, and fail.
 */

/**
 * The reason to skip, given why the oracle cannot run (`missing`, undefined
 * when it can): `missing` itself outside CI, printed once so a skipped suite
 * shows in the test output; undefined under `CI=true`, so the tests run and
 * fail there.
 */
export function skipReason(missing: string | undefined): string | undefined {
  if (missing === undefined || process.env.CI === "true") return undefined;
  console.warn(missing);
  return missing;
}
