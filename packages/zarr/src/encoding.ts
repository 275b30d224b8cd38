/**
 * `@lance-nd/zarr/encoding`: the Zarr export's encoding as pure functions,
 * for stores that serve a dataset as Zarr computed on request (lance-nd's
 * `zarrStore`): array metadata, the metadata documents, CF encoding and
 * whole chunks, the same code `writeZarr` writes with (README "Writing").
 */
export { arrayMetadata, fillOf, zarrDocuments } from "./array-metadata.js";
export { encodeArray } from "./cf.js";
export { chunkKey, jsonBytes } from "./metadata-docs.js";
export type { Compression, WrittenArray } from "./metadata-docs.js";
export { wholeChunkBytes } from "./whole-chunk.js";
export type { PlacedBlock } from "./whole-chunk.js";
export { ZarrError, isZarrError } from "./zarr-error.js";
