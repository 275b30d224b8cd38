import { defineConfig } from "vitest/config";
import base from "./vitest.config.js";

// The quick run for day-to-day work (`pnpm test:quick`): the libraries'
// unit, property and Lance-table tests, without the command line's
// integration tests, the reliability attacks and the Python oracles
// (LANCE_ND_ORACLES=none: test-helpers' pythonMissing reports them absent,
// so their tests skip). The full run is `pnpm test`.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ["packages/{casting,nd-arrow,stats,format,cf,netcdf,zarr,lance-nd,test-helpers}/test/**/*.test.ts"],
    env: { ...base.test?.env, LANCE_ND_ORACLES: "none" },
  },
});
