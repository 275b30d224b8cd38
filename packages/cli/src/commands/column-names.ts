/**
 * Variable names a table cannot have as column names (README, "Import"):
 * the mapping lives in lance-nd, shared with its Zarr store.
 */
export { withColumnNames, withSourceNames } from "lance-nd/internal";
