"""The xarray side of bench/remote-import.ts (Debian's python3-xarray,
python3-zarr 2, python3-fsspec, python3-aiohttp, python3-dask).

  python3 bench/remote-import-xarray.py make <folder> <times>
      Writes two Zarr v2 stores (consolidated, zarr-python's default blosc
      compressor) of t2m(time=<times>, lat=121, lon=241) float32, hourly from
      2020-01-01 (CF units "hours since 2020-01-01"), 0.25 degrees from 30N
      and 10W: <folder>/by-time.zarr in chunks of 24x121x241 and
      <folder>/by-space.zarr in chunks of 8760x20x20.
  python3 bench/remote-import-xarray.py import <url> <out.nc> <time0> <time1> <lat0> <lat1> <lon0> <lon1>
      Times xr.open_zarr(url).sel(...).to_netcdf(out.nc); prints JSON: ms,
      the shape selected and the sum of its values.
  python3 bench/remote-import-xarray.py sum <file.nc>
      Prints JSON: the shape of t2m in a netCDF file and the sum of its values.
"""
import json
import os
import sys
import time

import numpy as np
import xarray as xr

LAT = 121
LON = 241
CHUNKS = {"by-time.zarr": (24, LAT, LON), "by-space.zarr": (8760, 20, 20)}


def field(times):
    """A smooth field (latitude profile, seasons, a daily cycle, zonal waves) plus fixed-seed noise, in kelvin."""
    lat = (30 + 0.25 * np.arange(LAT)).astype(np.float32)
    lon = (-10 + 0.25 * np.arange(LON)).astype(np.float32)
    hours = np.arange(times, dtype=np.float64)
    stamps = np.datetime64("2020-01-01T00:00", "ns") + np.arange(times) * np.timedelta64(1, "h")
    season = np.sin(2 * np.pi * hours / 8766.0).astype(np.float32)
    day = np.sin(2 * np.pi * hours / 24.0).astype(np.float32)
    profile = 300 - 0.6 * (lat - 30)
    waves = 2 * np.cos(np.deg2rad(lon) * 3)
    values = np.empty((times, LAT, LON), dtype=np.float32)
    rng = np.random.default_rng(20200101)
    for t in range(times):
        values[t] = profile[:, None] + waves[None, :] + 12 * season[t] + 4 * day[t]
        values[t] += rng.standard_normal((LAT, LON), dtype=np.float32) * 0.25
    return lat, lon, stamps, values


def make(folder, times):
    lat, lon, stamps, values = field(times)
    ds = xr.Dataset(
        {"t2m": (("time", "lat", "lon"), values, {"units": "K", "long_name": "2 metre temperature"})},
        coords={
            "time": ("time", stamps, {"standard_name": "time"}),
            "lat": ("lat", lat, {"units": "degrees_north"}),
            "lon": ("lon", lon, {"units": "degrees_east"}),
        },
        attrs={"title": "hourly 0.25 degree regional t2m (bench/remote-import.ts)"},
    )
    for name, chunks in CHUNKS.items():
        store = os.path.join(folder, name)
        encoding = {"t2m": {"chunks": chunks}, "time": {"units": "hours since 2020-01-01", "dtype": "float64"}}
        ds.to_zarr(store, mode="w", consolidated=True, encoding=encoding)


def import_selection(url, out, time0, time1, lat0, lat1, lon0, lon1):
    started = time.perf_counter()
    ds = xr.open_zarr(url)
    part = ds.sel(time=slice(time0, time1), lat=slice(float(lat0), float(lat1)), lon=slice(float(lon0), float(lon1)))
    part.to_netcdf(out)
    ms = (time.perf_counter() - started) * 1000
    print(json.dumps({"ms": ms, **summed(out)}))


def summed(path):
    with xr.open_dataset(path) as written:
        return {"shape": list(written.t2m.shape), "sum": float(np.sum(written.t2m.values, dtype=np.float64))}


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2], int(sys.argv[3]))
    elif sys.argv[1] == "sum":
        print(json.dumps(summed(sys.argv[2])))
    else:
        import_selection(*sys.argv[2:10])
