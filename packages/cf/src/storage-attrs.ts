/**
 * The attributes a netCDF reader adds so that a file can be written back as
 * it was (`@lance-nd/netcdf` README, "Storage attributes"). Their names
 * follow `ncdump -s`, which shows netCDF-4's storage the same way; writers
 * read them and never write them as attributes, and the Zarr export leaves
 * them out. Here, in a pure package, so that readers and writers without
 * HDF5 share the one list.
 */

/** Chunk sizes of a chunked variable, one per stored dim (`List<Int32>`). */
export const CHUNK_SIZES_ATTR = "_ChunkSizes";
/** zlib level of a deflate-compressed variable (`Int32`). */
export const DEFLATE_LEVEL_ATTR = "_DeflateLevel";
/** `"true"` when the shuffle filter runs before compression. */
export const SHUFFLE_ATTR = "_Shuffle";
/** Another HDF5 filter, as `"<id>,<params>"` (zstd is `"32015,<level>"`). */
export const FILTER_ATTR = "_Filter";
/** The name of a char array's last (string length) dim, which reading folds into strings. */
export const CHAR_DIM_ATTR = "_CharDim";
/** The size of that dim. */
export const CHAR_DIM_SIZE_ATTR = "_CharDimSize";
/** The attributes (of the variable, or global ones on the file) that are NC_STRING with one value (`List<Utf8>`). */
export const STRING_ATTRS_ATTR = "_StringAttrs";
/**
 * The char attributes (of the variable, or global ones on the file) whose
 * bytes are not UTF-8 (`List<Utf8>`): each is read as Latin-1, one
 * character a byte, and writers give back those bytes.
 */
export const BYTE_ATTRS_ATTR = "_ByteAttrs";
/** Global: the unlimited dims of the file (one name, or a list). */
export const UNLIMITED_ATTR = "_Unlimited";

/** Global: every dim of the file in the file's order (`List<Utf8>`), the order writers give them back. */
export const DIM_ORDER_ATTR = "_DimOrder";

/** Global: every variable of the file in the file's order (`List<Utf8>`), the order writers write them in. */
export const VARIABLE_ORDER_ATTR = "_VariableOrder";

/** Global: the dims of the file that no variable uses (`List<Utf8>`), which writers give back. */
export const UNUSED_DIMS_ATTR = "_UnusedDims";
/** Global: their sizes (`List<Int32>`), in the same order. */
export const UNUSED_DIM_SIZES_ATTR = "_UnusedDimSizes";

/** Global: the source's format, `classic`, `64bit-offset` or `netcdf4` (`ncdump -k`), which writers keep. */
export const FORMAT_ATTR = "_Format";

/** Every storage attribute name. */
export const STORAGE_ATTRS: ReadonlySet<string> = new Set([
  CHUNK_SIZES_ATTR,
  DEFLATE_LEVEL_ATTR,
  SHUFFLE_ATTR,
  FILTER_ATTR,
  CHAR_DIM_ATTR,
  CHAR_DIM_SIZE_ATTR,
  STRING_ATTRS_ATTR,
  BYTE_ATTRS_ATTR,
  UNLIMITED_ATTR,
  DIM_ORDER_ATTR,
  VARIABLE_ORDER_ATTR,
  UNUSED_DIMS_ATTR,
  UNUSED_DIM_SIZES_ATTR,
  FORMAT_ATTR,
]);
