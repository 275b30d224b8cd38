/**
 * Range reads of a local store that stay inside the file (README
 * "Reading"): zarrita reads an inner chunk of a shard at the offset and
 * length the shard's index gives, and the file-system store returns zeros
 * for the bytes a file does not hold. An index entry past the end of its
 * shard (an offset of 2^63, a length longer than the file) is refused
 * instead of being read as zeros.
 */
import { open } from "node:fs/promises";
import { join } from "node:path";
import FileSystemStore from "@zarrita/storage/fs";

/** A range read outside its file: what {@link withCheckedChunks} turns into `ReadFailed` naming the array. */
export class RangePastEnd extends Error {
  override readonly name = "RangePastEnd";
}

type Range = { offset: number; length: number } | { suffixLength: number };

/** zarrita's file-system store whose `getRange` refuses a range past the end of its file ({@link RangePastEnd}). */
export class RangeCheckedStore extends FileSystemStore {
  override async getRange(
    key: `/${string}`,
    range: Range,
    options?: { signal?: AbortSignal },
  ): Promise<Uint8Array | undefined> {
    const [start, length] = "suffixLength" in range ? [undefined, range.suffixLength] : [range.offset, range.length];
    if (
      !Number.isSafeInteger(length) ||
      length < 0 ||
      (start !== undefined && (!Number.isSafeInteger(start) || start < 0))
    )
      throw new RangePastEnd(`the range ${describe(range)} of "${key}" is not a byte range`);
    const size = await fileSize(join(this.root, key.replace(/^\//, "")));
    if (size === undefined) return undefined;
    if ((start ?? 0) + length > size)
      throw new RangePastEnd(`the range ${describe(range)} of "${key}" lies past its end (${size} bytes)`);
    return super.getRange(key, range, options);
  }
}

/** `offset 12 length 40` or `the last 40 bytes`. */
function describe(range: Range): string {
  return "suffixLength" in range
    ? `of the last ${range.suffixLength} bytes`
    : `at offset ${range.offset} of length ${range.length}`;
}

/** The size of the file at `path`, or undefined when there is none. */
async function fileSize(path: string): Promise<number | undefined> {
  try {
    const handle = await open(path, "r");
    try {
      return (await handle.stat()).size;
    } finally {
      await handle.close();
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT" || (err as NodeJS.ErrnoException).code === "ENOTDIR")
      return undefined;
    throw err;
  }
}
