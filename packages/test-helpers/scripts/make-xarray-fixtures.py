#!/usr/bin/env python3
"""netCDF files made with xarray for the tests of @lance-nd/netcdf and the CLI.

    /usr/bin/python3 packages/test-helpers/scripts/make-xarray-fixtures.py <out-dir>

Checked with xarray 2023.01 (Debian 12), netCDF4 1.6.2, numpy 1.24.2. Files:

  packed.nc     netCDF-4: sst(time, lat, lon) int16 packed (scale_factor,
                add_offset float32, _FillValue -32767, fill values in it),
                time int32 "days since 2000-01-01" (CF time, unlimited dim),
                lat/lon float32, station(lat) char with its strlen dim,
                zlib level 4 and chunks (1, 2, 5) on sst.
  unpacked.nc   the same grid with sst float32 (no packing, NaN fill), time
                int64 and lat float64: another type for each variable.
  ranged.nc     netCDF-4: chl(time, lat, lon) int16 packed (scale_factor
                0.01, _FillValue -32767) with valid_range 0, 1000 (packed)
                and values on both sides of it; depth(lat) float32 with
                valid_min 0 and valid_max 5000 and values outside both.
  big.nc        netCDF-3 classic, a fixed 2-D variable and a record variable
                over 6 records, for windowed byte-range reads.
"""
import os
import sys

import numpy as np
import xarray as xr


def main(out):
    os.makedirs(out, exist_ok=True)
    lat = np.array([-30.0, -10.0, 10.0, 30.0], dtype="float32")
    lon = np.arange(5, dtype="float32") * 10
    time = np.array([0, 31, 60], dtype="int32")
    rng = np.random.default_rng(7)
    sst = (rng.integers(-500, 1500, size=(3, 4, 5))).astype("int16")
    sst[0, 0, 0] = -32767
    sst[2, 3, 4] = -32767
    stations = np.array([b"ALPHA", b"BRAVO-12", b"C", b"DELTA"], dtype="S8")
    packed = xr.Dataset(
        {
            "sst": (("time", "lat", "lon"), sst, {"units": "degC", "scale_factor": np.float32(0.01), "add_offset": np.float32(20.0), "_FillValue": np.int16(-32767)}),
            "station": (("lat",), stations, {"long_name": "station code"}),
        },
        coords={
            "time": ("time", time, {"units": "days since 2000-01-01", "calendar": "standard"}),
            "lat": ("lat", lat, {"units": "degrees_north"}),
            "lon": ("lon", lon, {"units": "degrees_east"}),
        },
        attrs={"title": "packed fixture", "Conventions": "CF-1.8"},
    )
    packed.to_netcdf(
        os.path.join(out, "packed.nc"),
        engine="netcdf4",
        unlimited_dims=["time"],
        encoding={"sst": {"zlib": True, "complevel": 4, "chunksizes": (1, 2, 5)}, "station": {"dtype": "S1", "char_dim_name": "strlen"}},
    )
    with xr.open_dataset(os.path.join(out, "packed.nc"), decode_cf=False) as ds:
        unpacked = ds.copy(deep=True).load()
    sst_float = (sst.astype("float32") * np.float32(0.01) + np.float32(20.0)).astype("float32")
    sst_float[sst == -32767] = np.nan
    unpacked["sst"] = (("time", "lat", "lon"), sst_float, {"units": "degC", "_FillValue": np.float32(np.nan)})
    unpacked["time"] = ("time", time.astype("int64"), {"units": "days since 2000-01-01", "calendar": "standard"})
    unpacked["lat"] = ("lat", lat.astype("float64"), {"units": "degrees_north"})
    unpacked.attrs["title"] = "unpacked fixture"
    unpacked = unpacked.drop_vars("station")
    unpacked["station"] = (("lat",), stations, {"long_name": "station code"})
    unpacked.to_netcdf(os.path.join(out, "unpacked.nc"), engine="netcdf4", unlimited_dims=["time"], encoding={"station": {"dtype": "S1", "char_dim_name": "strlen"}})
    chl = rng.integers(-100, 1100, size=(3, 4, 5)).astype("int16")
    chl[0, 0, :2] = [-50, 1200]
    chl[1, 1, 1] = -32767
    ranged = xr.Dataset(
        {
            "chl": (("time", "lat", "lon"), chl, {"units": "mg m-3", "scale_factor": np.float32(0.01), "_FillValue": np.int16(-32767), "valid_range": np.array([0, 1000], "int16")}),
            "depth": (("lat",), np.array([-1.0, 10.0, 4999.5, 6000.0], "float32"), {"units": "m", "valid_min": np.float32(0), "valid_max": np.float32(5000)}),
        },
        coords={"time": ("time", time, {"units": "days since 2000-01-01"}), "lat": ("lat", lat), "lon": ("lon", lon)},
        attrs={"title": "valid range fixture"},
    )
    ranged.to_netcdf(os.path.join(out, "ranged.nc"), engine="netcdf4")
    big = xr.Dataset(
        {
            "grid": (("y", "x"), np.arange(7 * 9, dtype="float64").reshape(7, 9), {"units": "1"}),
            "rec": (("t", "x"), np.arange(6 * 9, dtype="int16").reshape(6, 9), {"_FillValue": np.int16(-1)}),
            "tt": ("t", np.arange(6, dtype="float32"), {"units": "hours since 2001-02-03 04:05:06"}),
        }
    )
    big.to_netcdf(os.path.join(out, "big.nc"), format="NETCDF3_CLASSIC", unlimited_dims=["t"])


if __name__ == "__main__":
    main(sys.argv[1])
