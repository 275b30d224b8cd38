/**
 * @lance-nd/test-helpers: what the workspace's tests share (see README.md).
 */
export { failure } from "./failure.js";
export { skipReason } from "./missing-oracle.js";
export {
  NETCDF_FIXTURES,
  type NetcdfFixtureName,
  ensureNetcdfFixtures,
  hasTool,
  netcdfToolsSkipReason,
  runTool,
} from "./netcdf-tools.js";
export { PYTHON, type RunPythonOptions, pythonMissing, pythonSkipReason, runPython } from "./python.js";
