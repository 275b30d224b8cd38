/**
 * lance-nd: N-dimensional datasets (netCDF / xarray model) in Lance tables.
 * Work in progress: see the package README. So far this entry exports the
 * typed errors.
 *
 * @example
 * import { isLanceNdError } from "lance-nd";
 * try { await open("data/missing.lance"); } catch (err) {
 *   if (isLanceNdError(err, "TableNotFound")) console.error(err.uri);
 * }
 */
export { isLanceNdError, LanceNdError, type LanceNdErrorCode, type LanceNdErrorContext } from "./errors.js";
