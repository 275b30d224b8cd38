"""Yearly files, and what xarray.open_mfdataset makes of them.

Usage:
  /usr/bin/python3 xarray-mfdataset-oracle.py make <dir>
  /usr/bin/python3 xarray-mfdataset-oracle.py read <out.json> <file.nc>...

`make` writes, with netCDF4-python, tas_2000.nc ... tas_2003.nc (tas(time,
lat, lon) Float32, time in days since 2000-01-01, 3 or 4 steps a year, a
missing value in each file), tas_2003.zarr (tas_2003.nc as a Zarr store,
by xarray's to_zarr), fixed/tas_2001.nc (tas_2001.nc's times, other
values), overlap.nc (times inside 2001), and for 2004 other_lat.nc (another
latitude), backwards.nc (times decreasing) and other_units.nc (days since
2004-01-01). `read` writes open_mfdataset(files, combine="by_coords") as JSON
{name: values, flat}: masked, times as numbers (decode_times=False), as
`lance-nd import` (--cf mask) stores them; missing values as null.
"""
import json
import math
import os
import sys

import netCDF4
import numpy as np
import xarray as xr

LAT = [-45.0, 0.0, 45.0]
LON = [0.0, 90.0, 180.0, 270.0]


def make_file(path, days, seed, lat=LAT, units="days since 2000-01-01"):
    rng = np.random.default_rng(seed)
    with netCDF4.Dataset(path, "w") as ds:
        ds.createDimension("time", None)
        ds.createDimension("lat", len(lat))
        ds.createDimension("lon", len(LON))
        time = ds.createVariable("time", "f8", ("time",))
        time.units = units
        time.calendar = "standard"
        time[:] = days
        ds.createVariable("lat", "f4", ("lat",))[:] = lat
        ds.createVariable("lon", "f4", ("lon",))[:] = LON
        tas = ds.createVariable("tas", "f4", ("time", "lat", "lon"), fill_value=np.float32(-999))
        tas.units = "K"
        values = (250 + 50 * rng.random((len(days), len(lat), len(LON)))).astype("f4")
        values[0, 1, 2] = -999
        tas.set_auto_mask(False)
        tas[:] = values
        ds.title = "near-surface air temperature"


def make(folder):
    for k, year in enumerate(range(2000, 2004)):
        steps = 3 if k % 2 == 0 else 4
        start = (np.datetime64(f"{year}-01-15") - np.datetime64("2000-01-01")).astype(int)
        make_file(f"{folder}/tas_{year}.nc", start + 30.0 * np.arange(steps), year)
    with xr.open_dataset(f"{folder}/tas_2003.nc", decode_times=False) as ds:
        ds.to_zarr(f"{folder}/tas_2003.zarr")
    os.makedirs(f"{folder}/fixed", exist_ok=True)
    make_file(f"{folder}/fixed/tas_2001.nc", 380 + 30.0 * np.arange(4), 42)
    make_file(f"{folder}/overlap.nc", 400 + 30.0 * np.arange(3), 7)
    make_file(f"{folder}/other_lat.nc", 1475 + 30.0 * np.arange(3), 8, lat=[-40.0, 0.0, 40.0])
    make_file(f"{folder}/backwards.nc", 1535 - 30.0 * np.arange(3), 9)
    make_file(f"{folder}/other_units.nc", 14 + 30.0 * np.arange(3), 10, units="days since 2004-01-01")


def flat(values):
    return [None if isinstance(v, float) and math.isnan(v) else v for v in np.asarray(values).ravel().tolist()]


def read(out, files):
    ds = xr.open_mfdataset(files, combine="by_coords", decode_times=False)
    result = {name: flat(ds[name].values) for name in ["time", "lat", "lon", "tas"]}
    with open(out, "w") as f:
        json.dump(result, f)


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2])
    else:
        read(sys.argv[2], sys.argv[3:])
