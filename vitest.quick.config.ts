import { defineConfig } from "vitest/config";
import base from "./vitest.config.js";

// The quick run for day-to-day work (`pnpm test:quick`): the libraries'
// unit, property and Lance-table tests, without the command line's
// integration tests, the reliability attacks and the Python oracles
// (LANCE_ND_ORACLES=none: test-helpers' pythonMissing reports them absent,
// so their tests skip). The full run is `pnpm test`.
//
// Its files run without isolation: each worker evaluates the libraries,
// apache-arrow and lancedb once for all the files it runs, not once a
// file, which halves the run's CPU (on 2 cores, 180 s of wall time
// became 94 s). The libraries keep no state a file could leak to the
// next but their OpenTelemetry tracer, which each test file that records
// spans installs anew (packages/lance-nd/test/helpers/span-recorder.ts);
// the full run keeps every file isolated.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ["packages/{casting,nd-arrow,stats,format,cf,netcdf,zarr,lance-nd,test-helpers}/test/**/*.test.ts"],
    env: { ...base.test?.env, LANCE_ND_ORACLES: "none" },
    isolate: false,
  },
});
