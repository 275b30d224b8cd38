/** The Zarr side of `lance-nd export --format zarr` (CLI README, "Zarr"). */
import type { NdRecordBatch } from "@lance-nd/nd-arrow";
import { writeZarr } from "@lance-nd/zarr";
import type { WriteZarrOptions } from "@lance-nd/zarr";
import { columnDefaults } from "lance-nd";
import type { NdTable } from "lance-nd";
import { zarrCall } from "./zarr-errors.js";

/** The Zarr codecs `--compression` chooses from. */
export type ZarrCompression = NonNullable<WriteZarrOptions["compression"]>;

/**
 * Writes `dataset` (values as stored: the export undid the table's CF mode)
 * as a Zarr store at `out`, cut into chunks by `options.chunks` (else one
 * chunk), with `options.compression`. A `ZarrError`
 * becomes a `CliError`; a failed write leaves `out` as it was.
 */
export async function writeZarrStore(
  out: string,
  dataset: NdRecordBatch,
  options: Pick<WriteZarrOptions, "version" | "chunks" | "compression">,
): Promise<void> {
  await zarrCall(() => writeZarr(out, dataset, options));
}

/**
 * The Zarr codec matching a table's encoding (its column defaults, CLI
 * README "Encoding defaults"): none stays none, zstd keeps its level, and
 * anything else (lz4, Lance's own) is zstd, Zarr's usual codec.
 */
export async function tableZarrCompression(table: NdTable): Promise<ZarrCompression> {
  const compression = (await columnDefaults(table)).compression;
  if (compression === "none") return { codec: "none" };
  if (typeof compression === "object" && compression.codec === "zstd" && compression.level !== undefined)
    return { codec: "zstd", level: compression.level };
  return { codec: "zstd" };
}
