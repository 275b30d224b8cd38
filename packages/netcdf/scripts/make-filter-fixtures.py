#!/usr/bin/env python3
"""netCDF-4 files compressed with HDF5 filter plugins, for the tests of
@lance-nd/netcdf and the CLI, and their values as JSON on stdout.

    /usr/bin/python3 packages/netcdf/scripts/make-filter-fixtures.py <out-dir>

Debian's netCDF-C and HDF5 ship no zstd or bzip2 filter, so netCDF4-python and
nccopy cannot write these. h5netcdf writes the netCDF-4 file (dims, attributes,
a variable whose filter pipeline holds the filter) through h5py, and each chunk
is compressed by the reference library (zstandard's libzstd, Python's bz2) and
stored with h5py's write_direct_chunk, as the HDF5 filter would store it.
Checked with h5netcdf 1.1.0, h5py 3.7.0, zstandard 0.20.0 (Debian 12:
python3-h5netcdf, python3-zstandard). Files:

  zstd.nc         temp(time, lat, lon) float32, chunks (1, 3, 8), filter 32015
                  (zstd, level 5), an unlimited time; lat float64.
  bzip2.nc        count(y, x) int16, chunks (2, 5), filter 307 (bzip2, level 9).
  unknown-filter.nc  x(n) float32 behind filter 32099, which no plugin provides.
"""
import bz2
import json
import os
import sys

import h5netcdf
import numpy as np
import zstandard


def chunked(path, dims, name, values, chunks, filter_id, level, compress, attrs):
    """A netCDF-4 file with one variable whose chunks `compress` packs as filter `filter_id` would."""
    with h5netcdf.File(path, "w") as f:
        f.dimensions = dims
        var = f.create_variable(name, tuple(dims), values.dtype, chunks=chunks, compression=filter_id, compression_opts=(level,), allow_unknown_filter=True)
        var.attrs.update(attrs)
        for d, size in zip(dims, values.shape):
            if dims[d] is None:
                f.resize_dimension(d, size)
        starts = np.ndindex(*[-(-s // c) for s, c in zip(values.shape, chunks)])
        for index in starts:
            at = tuple(i * c for i, c in zip(index, chunks))
            block = values[tuple(slice(a, a + c) for a, c in zip(at, chunks))]
            var._h5ds.id.write_direct_chunk(at, compress(np.ascontiguousarray(block).tobytes()), 0)


def main(out):
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(11)
    temp = rng.normal(15, 5, size=(4, 6, 8)).astype("float32")
    chunked(os.path.join(out, "zstd.nc"), {"time": None, "lat": 6, "lon": 8}, "temp", temp, (1, 3, 8), 32015, 5, zstandard.ZstdCompressor(level=5).compress, {"units": "degC"})
    with h5netcdf.File(os.path.join(out, "zstd.nc"), "a") as f:
        f.create_variable("lat", ("lat",), "f8", data=np.linspace(-50, 50, 6))
    count = rng.integers(-1000, 1000, size=(4, 10)).astype("int16")
    chunked(os.path.join(out, "bzip2.nc"), {"y": 4, "x": 10}, "count", count, (2, 5), 307, 9, lambda b: bz2.compress(b, 9), {"long_name": "counts"})
    chunked(os.path.join(out, "unknown-filter.nc"), {"n": 4}, "x", np.arange(4, dtype="float32"), (4,), 32099, 1, lambda b: b, {})
    json.dump({"temp": temp.reshape(-1).tolist(), "count": count.reshape(-1).tolist()}, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1])
