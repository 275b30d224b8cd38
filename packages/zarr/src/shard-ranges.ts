/**
 * Range reads of a local store that stay inside the file (README
 * "Reading"): zarrita reads an inner chunk of a shard at the offset and
 * length the shard's index gives, and the file-system store returns zeros
 * for the bytes a file does not hold. An index entry past the end of its
 * shard (an offset of 2^63, a length longer than the file) is refused
 * instead of being read as zeros: the store of store-files.ts throws
 * {@link RangePastEnd}, which checked-chunks.ts names the array in.
 */

/** A range read outside its file: what {@link withCheckedChunks} turns into `ReadFailed` naming the array. */
export class RangePastEnd extends Error {
  override readonly name = "RangePastEnd";
}
