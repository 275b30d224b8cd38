/**
 * What an import fetches from the network (CLI README, "Zarr": "Stores
 * elsewhere"): the bytes of every answer, counted at one place, where
 * @lance-nd/zarr's `storeFetch` receives a body (`onBytes`), for Zarr
 * stores and netCDF files at URLs alike; the progress bar and the summary
 * report them. A netCDF-4 file at a URL, copied to a temporary file before
 * it is read, shows a bar of its own for the copy.
 */
import { detectFormat, openNetcdf, openUrlSource } from "@lance-nd/netcdf";
import type { ByteSource, NetcdfFile, OpenNetcdfOptions } from "@lance-nd/netcdf";
import { storeFetch } from "@lance-nd/zarr";
import type { Io } from "../io.js";
import { type Progress, progressBar } from "../output/progress.js";

/** True when `path` is a URL (`scheme://...`) rather than a local path. */
export function isUrl(path: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(path);
}

/** The bytes an import has received from the network, and the bars that show a download of them. */
export class FetchedBytes {
  /** The bytes received so far. */
  bytes = 0;

  constructor(private readonly io: Io) {}

  /** Counts the body of one answer (`storeFetch`'s `onBytes`). */
  readonly onBytes = (bytes: number): void => {
    this.bytes += bytes;
  };

  /** A bar (on a terminal) of the download of `total` bytes labelled `label`: the bytes done and those fetched. */
  downloadBar(label: string, total: number): Progress {
    return progressBar(this.io, label, total, { rows: false, fetched: true });
  }
}

/** How a source at a URL is read: `--max-requests`, `--storage-option` for `s3://`, and what counts its bytes. */
export interface RemoteOptions {
  readonly maxRequests?: number;
  readonly storage?: Readonly<Record<string, string>>;
  /** Counts the bytes received; unset: not counted. */
  readonly fetched?: FetchedBytes;
}

/**
 * The netCDF file at `url` opened by `openNetcdf` with `options`, read by
 * byte ranges with the Zarr reader's retries and at most `maxRequests` in
 * flight, its bytes counted by `fetched` (when given), a netCDF-4 file's
 * copy to a temporary file under a bar of its own (the bytes copied, of
 * the file's size, and those fetched). Its first bytes (the format) are
 * asked for once.
 */
export async function openNetcdfAtUrl(
  url: string,
  options: OpenNetcdfOptions,
  maxRequests: number | undefined,
  fetched: FetchedBytes | undefined,
): Promise<NetcdfFile> {
  // A server that ignores Range sends the whole file: the source keeps it for its later reads, written
  // to its temporary file as it arrives (never whole in memory); one cut short fails, not retried.
  const fetch = storeFetch({ maxRequests, onBytes: fetched?.onBytes, passWhole: true });
  const source = await openUrlSource(url, { fetch });
  const head = await source.read(0, 8);
  const copy =
    fetched !== undefined && netcdf4(head, url) ? fetched.downloadBar(`download ${url}`, source.size) : undefined;
  let copied = 0;
  const read: ByteSource["read"] = async (offset, length) => {
    if (offset === 0 && length <= head.length) return head.slice(0, length);
    const bytes = await source.read(offset, length);
    copied += bytes.length;
    copy?.update(copied, 0, fetched?.bytes);
    return bytes;
  };
  try {
    return await openNetcdf({ ...source, read }, options);
  } finally {
    copy?.stop();
  }
}

/** True when `head` starts a netCDF-4 (HDF5) file; any other start is for `openNetcdf` to refuse. */
function netcdf4(head: Uint8Array, url: string): boolean {
  try {
    return detectFormat(head, url) === "netcdf4";
  } catch {
    return false;
  }
}
