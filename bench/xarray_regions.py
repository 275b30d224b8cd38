"""The xarray side of bench/xarray-regions.ts (Debian's python3-xarray,
python3-netcdf4, python3-zarr 2).

  python3 bench/xarray_regions.py make <dir> <times>
      tas(time, lat 361, lon 720) float32 as <dir>/tas.nc (netCDF-4, zlib 1,
      HDF5 chunks (1, 361, 720), CF time in days, descending latitude) and
      <dir>/tas.zarr (xarray.Dataset.to_zarr, chunks (15, 91, 180),
      zarr-python's default compressor, Blosc lz4).
  python3 bench/xarray_regions.py time <dir> <regions.json>
      Times each read of regions.json with xarray + netCDF4 and xarray +
      zarr-python in this one process (each file opened once, untimed) and
      prints JSON: per engine, read and region, ms and a checksum.
"""
import json
import sys
import time

import numpy as np
import xarray as xr

LAT, LON = 361, 720


def make(folder, times):
    lat = np.linspace(90, -90, LAT)
    lon = np.arange(LON) * 0.5
    rng = np.random.default_rng(26)
    y = np.cos(np.deg2rad(lat))[None, :, None]
    x = np.sin(np.deg2rad(lon) * 3)[None, None, :]
    t = np.arange(times)[:, None, None]
    tas = (250 + 40 * y + 5 * x * y + 3 * np.sin(2 * np.pi * t / 365)).astype(np.float32)
    tas += rng.normal(0, 0.5, tas.shape).astype(np.float32)
    ds = xr.Dataset(
        {"tas": (("time", "lat", "lon"), tas, {"units": "K"})},
        coords={
            "time": ("time", np.arange(times, dtype=np.float64), {"units": "days since 2000-01-01", "calendar": "standard"}),
            "lat": ("lat", lat, {"units": "degrees_north"}),
            "lon": ("lon", lon, {"units": "degrees_east"}),
        },
        attrs={"title": "ERA5-shaped tas"},
    )
    ds.to_netcdf(
        f"{folder}/tas.nc",
        engine="netcdf4",
        format="NETCDF4",
        encoding={"tas": {"zlib": True, "complevel": 1, "chunksizes": (1, LAT, LON)}},
    )
    ds.to_zarr(f"{folder}/tas.zarr", mode="w", encoding={"tas": {"chunks": (15, 91, 180)}})


def checksum(values):
    flat = np.asarray(values, dtype=np.float64).ravel()
    return float((flat * (np.arange(flat.size) % 997 + 1)).sum())


def read(ds, kind, region):
    tas = ds["tas"]
    if kind == "step":
        return tas.isel(time=region["time"]).values
    if kind in ("box", "point"):
        return tas.isel(lat=slice(*region["lat"]), lon=slice(*region["lon"])).values
    return tas.sel(time=slice(region["from"], region["to"])).values


def time_reads(folder, regions_path):
    with open(regions_path) as f:
        regions = json.load(f)
    out = {}
    for engine, ds in (
        ("netcdf4", xr.open_dataset(f"{folder}/tas.nc", engine="netcdf4")),
        ("zarr", xr.open_zarr(f"{folder}/tas.zarr", chunks=None)),
    ):
        out[engine] = {}
        for kind, list_ in regions.items():
            runs = []
            for region in list_:
                start = time.perf_counter()
                values = read(ds, kind, region)
                ms = (time.perf_counter() - start) * 1000
                runs.append({"ms": ms, "checksum": checksum(values), "shape": list(values.shape)})
            out[engine][kind] = runs
        ds.close()
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2], int(sys.argv[3]))
    else:
        time_reads(sys.argv[2], sys.argv[3])
