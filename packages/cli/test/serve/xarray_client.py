"""xarray and zarr-python 2 as clients of `lance-nd serve` (test/serve/xarray.test.ts).

  make-cf OUT SEED      a chunked, compressed CF netCDF-4 file (netCDF4-python)
  identical URL NC      xr.open_zarr(URL, consolidated=True) is identical to xr.open_dataset(NC)
  mean URL NC VAR       a dask mean over time with 4 threads equals numpy's on NC
  region NC VAR A:B...  the raw values of VAR[A:B, ...] in NC (no CF decoding), flat, with their shape
Each prints one line of JSON; a difference raises (exit code 1, the diff on stderr).
"""
import json
import sys

import numpy as np


def make_cf(out, seed):
    import netCDF4

    rng = np.random.default_rng(int(seed))
    with netCDF4.Dataset(out, "w", format="NETCDF4") as nc:
        nc.Conventions = "CF-1.8"
        nc.title = "served chunked CF file"
        nc.createDimension("time", 8)
        nc.createDimension("lat", 10)
        nc.createDimension("lon", 12)
        time = nc.createVariable("time", "f8", ("time",))
        time.units = "days since 2000-01-01 00:00:00"
        time.calendar = "standard"
        time.standard_name = "time"
        time[:] = np.arange(8) * 30.0
        lat = nc.createVariable("lat", "f4", ("lat",))
        lat.units = "degrees_north"
        lat[:] = np.linspace(-45, 45, 10)
        lon = nc.createVariable("lon", "f4", ("lon",))
        lon.units = "degrees_east"
        lon[:] = np.linspace(0, 330, 12)
        temp = nc.createVariable(
            "temp", "f4", ("time", "lat", "lon"), zlib=True, complevel=4, chunksizes=(2, 5, 6), fill_value=np.float32(-999)
        )
        temp.units = "K"
        temp.long_name = "air temperature"
        temp.standard_name = "air_temperature"
        values = (280 + 20 * rng.standard_normal((8, 10, 12))).astype("f4")
        values[1, 2, 3] = -999  # a fill value: NaN once decoded
        temp[:] = values
        flag = nc.createVariable("flag", "i2", ("lat", "lon"), chunksizes=(5, 6))
        flag.long_name = "land flag"
        flag[:] = rng.integers(0, 2, (10, 12)).astype("i2")
    print(json.dumps({"written": out}))


def identical(url, path):
    import xarray as xr

    served = xr.open_zarr(url, consolidated=True).load()
    source = xr.open_dataset(path).load()
    xr.testing.assert_identical(served, source)
    print(json.dumps({"identical": True, "variables": sorted(served.variables)}))


def mean(url, path, name):
    import dask
    import xarray as xr

    served = xr.open_zarr(url, consolidated=True)[name]
    if served.chunks is None or max(len(c) for c in served.chunks) < 2:
        raise AssertionError(f"{name} is not dask-backed in several chunks: {served.chunks}")
    with dask.config.set(scheduler="threads", num_workers=4):
        got = served.mean("time").compute().values
    source = xr.open_dataset(path)[name]
    expected = np.nanmean(source.values, axis=source.dims.index("time"))
    np.testing.assert_allclose(got, expected, rtol=1e-6, equal_nan=True)
    print(json.dumps({"equal": True, "chunks": [len(c) for c in served.chunks]}))


def region(path, name, *ranges):
    import xarray as xr

    source = xr.open_dataset(path, mask_and_scale=False, decode_times=False)[name]
    index = tuple(slice(*map(int, r.split(":"))) for r in ranges)
    values = source.values[index]
    print(json.dumps({"shape": list(values.shape), "values": values.ravel().tolist()}))


if __name__ == "__main__":
    command, *args = sys.argv[1:]
    {"make-cf": make_cf, "identical": identical, "mean": mean, "region": region}[command](*args)
