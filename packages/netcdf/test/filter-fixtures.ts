/**
 * The netCDF-4 files of scripts/make-filter-fixtures.py (zstd, bzip2 and an
 * unknown HDF5 filter, written with h5netcdf and the reference compressors)
 * and the values they hold. Outside CI the tests skip with the reason when
 * /usr/bin/python3 lacks h5netcdf or zstandard; under `CI=true` they fail.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { pythonSkipReason, runPython } from "@lance-nd/test-helpers";

const SCRIPT = fileURLToPath(new URL("../scripts/make-filter-fixtures.py", import.meta.url));

/** Why the filter fixtures cannot be made here (undefined when they can, and always under CI). */
export function filterFixturesSkipReason(): string | undefined {
  return pythonSkipReason(
    "filter fixtures",
    ["h5netcdf", "zstandard"],
    "apt-get install python3-h5netcdf python3-zstandard",
  );
}

/** The folder of the files and the values written into them, flattened in C order. */
export interface FilterFixtures {
  dir: string;
  values: { temp: number[]; count: number[] };
}

/** Makes the files in a new temporary folder. */
export function makeFilterFixtures(): FilterFixtures {
  const dir = mkdtempSync(join(tmpdir(), "lance-nd-filter-fixtures-"));
  return { dir, values: JSON.parse(runPython([SCRIPT, dir])) as FilterFixtures["values"] };
}

/**
 * The chunks of a variable as h5py reads them raw (`read_direct_chunk`) and
 * libzstd (Python's zstandard) or Python's bz2 decompresses them, as the
 * filter pipeline (also returned) says, each as a flat list in C order: the
 * oracle of a zstd or bzip2 write.
 */
export function compressedChunks(path: string, name: string): { filters: [number, number[]][]; chunks: number[][] } {
  const code = [
    "import bz2, json, sys, h5py, numpy as np, zstandard",
    "f = h5py.File(sys.argv[1], 'r'); d = f[sys.argv[2]]; p = d.id.get_create_plist()",
    "filters = [[p.get_filter(i)[0], list(p.get_filter(i)[2])] for i in range(p.get_nfilters())]",
    "unpack = {32015: zstandard.decompress, 307: bz2.decompress}[filters[0][0]]",
    "chunks = [np.frombuffer(unpack(d.id.read_direct_chunk(c.chunk_offset)[1]), d.dtype).tolist() for c in (d.id.get_chunk_info(i) for i in range(d.id.get_num_chunks()))]",
    "json.dump({'filters': filters, 'chunks': chunks}, sys.stdout)",
  ].join("\n");
  return JSON.parse(runPython(["-c", code, path, name])) as { filters: [number, number[]][]; chunks: number[][] };
}
