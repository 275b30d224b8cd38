/**
 * @lance-nd/test-helpers: what the workspace's tests share (see README.md).
 */
export { CDL_ROUND_TRIP_CASES, type CdlKind, ncgenCdl } from "./cdl-cases.js";
export { loggedLines, quickStartAndReadme } from "./examples.js";
export { failure } from "./failure.js";
export { KeptProcess, type KeptProcessFailure } from "./kept-process.js";
export { boundByFileModes, fileModesSkipReason } from "./file-modes.js";
export { skipReason } from "./missing-oracle.js";
export {
  AZURITE_ACCOUNT,
  AZURITE_KEY,
  type ObjectStoreServer,
  startAzurite,
  startS3Server,
} from "./object-stores.js";
export { type BucketObject, folderObjects, putObjects } from "./s3-objects.js";
export { type SourceContractCase, sourceContract } from "./source-contract.js";
export { type FileFault, type FileServer, type ServedRequest, startFileServer } from "./file-server.js";
export { type LocalServer, listenLocally } from "./local-server.js";
export { type FaultProxy, type StoreFault, startFaultProxy } from "./fault-proxy.js";
export {
  NETCDF_FIXTURES,
  type NetcdfFixtureName,
  ensureNetcdfFixtures,
  hasTool,
  ncdumpBody,
  ncdumpKind,
  netcdfToolsSkipReason,
  runTool,
} from "./netcdf-tools.js";
export { type HelperScript, helperScript } from "./scripts.js";
export { seededRandom } from "./seeded-random.js";
export {
  PYTHON,
  type PythonRun,
  type RunPythonOptions,
  callPython,
  pythonLeftOut,
  pythonMissing,
  pythonSkipReason,
  runPython,
} from "./python.js";
