#!/usr/bin/env python3
"""A netCDF-4 file of about `mib` MiB of float32 sst for the import benchmark.

    /usr/bin/python3 packages/cli/scripts/make-bench-file.py out.nc [mib]

sst(time, lat=720, lon=1440), chunked one time step a chunk, zlib level 1,
written one time step at a time with netCDF4 (a smooth field plus seeded
noise, so it compresses like real data, not like zeros).
"""
import sys

import netCDF4
import numpy as np


def main(path, mib):
    lat, lon = 720, 1440
    steps = max(1, round(mib * 2**20 / (4 * lat * lon)))
    rng = np.random.default_rng(1)
    y, x = np.meshgrid(np.linspace(-1, 1, lat, dtype="float32"), np.linspace(0, 6.28, lon, dtype="float32"), indexing="ij")
    with netCDF4.Dataset(path, "w") as ds:
        ds.createDimension("time", None)
        ds.createDimension("lat", lat)
        ds.createDimension("lon", lon)
        t = ds.createVariable("time", "i4", ("time",))
        t.units = "days since 2000-01-01"
        sst = ds.createVariable("sst", "f4", ("time", "lat", "lon"), zlib=True, complevel=1, chunksizes=(1, lat, lon), fill_value=np.float32(-999))
        sst.units = "K"
        for i in range(steps):
            t[i] = i
            sst[i] = 280 + 20 * np.cos(y * 1.5) + np.sin(x + i / 10) + rng.normal(0, 0.1, (lat, lon)).astype("float32")


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 1024)
