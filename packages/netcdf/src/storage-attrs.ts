/**
 * The storage attributes (README, "Storage attributes"): the one list lives
 * in `@lance-nd/cf`, shared with the Zarr export and lance-nd's Zarr store.
 */
export {
  CHAR_DIM_ATTR,
  CHAR_DIM_SIZE_ATTR,
  CHUNK_SIZES_ATTR,
  DEFLATE_LEVEL_ATTR,
  DIM_ORDER_ATTR,
  FILTER_ATTR,
  FORMAT_ATTR,
  SHUFFLE_ATTR,
  STORAGE_ATTRS,
  STRING_ATTRS_ATTR,
  UNLIMITED_ATTR,
  UNUSED_DIMS_ATTR,
  UNUSED_DIM_SIZES_ATTR,
} from "@lance-nd/cf";
