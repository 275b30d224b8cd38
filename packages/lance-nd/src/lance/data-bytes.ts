import type { Data } from "apache-arrow";

/**
 * The bytes an Arrow `Data` holds in memory: its values, offsets and
 * validity buffers and those of its children. The writer sizes its buffer
 * with it, the scan its Lance batches.
 */
export function dataBytes(data: Data): number {
  const own =
    (data.values?.byteLength ?? 0) + (data.valueOffsets?.byteLength ?? 0) + (data.nullBitmap?.byteLength ?? 0);
  return data.children.reduce((sum: number, child: Data) => sum + dataBytes(child), own);
}
