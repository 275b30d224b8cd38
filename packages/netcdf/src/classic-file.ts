/**
 * netCDF-3 files (classic and 64-bit offset) read by byte ranges: the header
 * first (growing the read until it fits), then each slab from its offset, so
 * a row of a many-GiB file costs about its own size. netcdfjs is not used: it
 * wants the whole file in memory.
 */
import { NeedMoreBytes, WIDTH, parseClassicHeader } from "./classic-header.js";
import type { ClassicHeader, ClassicVariable } from "./classic-header.js";
import { NetcdfError } from "./netcdf-error.js";
import { type ClassicRawVariable, readSlab } from "./classic-slab.js";
import type { NetcdfDim, RawFile } from "./raw.js";
import type { ByteSource } from "./source.js";

/** Opens a netCDF-3 file from its source; `InvalidFile` for a damaged or truncated header. */
export async function openClassic(source: ByteSource): Promise<RawFile> {
  const { label } = source;
  const header = await readHeader(source);
  const { dims, recordDim } = header;
  // The record size is the sum of the record variables' vsizes, except that
  // a file with a single record variable has no padding between records.
  const recordVars = header.variables.filter((v) => v.dimIds[0] === recordDim && recordDim >= 0);
  const unpadded = (v: ClassicVariable): number =>
    v.dimIds.slice(1).reduce((n, id) => n * dims[id]!.size, WIDTH[v.type]);
  const recordSize = recordVars.length === 1 ? unpadded(recordVars[0]!) : recordVars.reduce((n, v) => n + v.vsize, 0);
  let numRecords = header.numRecords;
  if (numRecords < 0) {
    const first = recordVars[0];
    numRecords = first === undefined || recordSize === 0 ? 0 : Math.floor((source.size - first.begin) / recordSize);
  }
  const fileDims: NetcdfDim[] = dims.map((d, i) => ({
    name: d.name,
    size: i === recordDim ? numRecords : d.size,
    unlimited: i === recordDim,
  }));
  const variables: ClassicRawVariable[] = header.variables.map((v) => ({
    name: v.name,
    type: v.type,
    dims: v.dimIds.map((id) => ({ name: fileDims[id]!.name, size: fileDims[id]!.size })),
    attrs: v.attrs,
    chunking: null,
    compression: null,
    header: v,
    record: recordDim >= 0 && v.dimIds[0] === recordDim,
  }));
  for (const v of variables) {
    const perRecord = v.record ? unpadded(v.header) : v.dims.reduce((n, d) => n * d.size, WIDTH[v.header.type]);
    const count = v.record ? numRecords : 1;
    const end = v.header.begin + (count - 1) * (v.record ? recordSize : 0) + perRecord;
    if (count > 0 && perRecord > 0 && end > source.size) {
      throw new NetcdfError(
        "InvalidFile",
        `${label}: variable "${v.name}" ends at byte ${end} but the file has ${source.size} bytes (truncated file)`,
        {
          path: label,
          variable: v.name,
        },
      );
    }
  }
  return {
    format: header.version === 1 ? "classic" : "64bit-offset",
    dims: fileDims,
    variables,
    globalAttrs: header.globalAttrs,
    warnings: [],
    readSlab: (variable, start, count) => readSlab(source, variable as ClassicRawVariable, recordSize, start, count),
    close: () => source.close(),
  };
}

async function readHeader(source: ByteSource): Promise<ClassicHeader> {
  let length = Math.min(source.size, 64 * 1024);
  for (;;) {
    const bytes = await source.read(0, length);
    try {
      return parseClassicHeader(bytes);
    } catch (err) {
      if (err instanceof NeedMoreBytes && length < source.size) {
        length = Math.min(source.size, length * 4);
        continue;
      }
      const why =
        err instanceof NeedMoreBytes
          ? "the header runs past the end of the file (truncated file)"
          : (err as Error).message;
      throw new NetcdfError("InvalidFile", `${source.label}: not a readable netCDF-3 file (${why})`, {
        path: source.label,
        cause: err,
      });
    }
  }
}
