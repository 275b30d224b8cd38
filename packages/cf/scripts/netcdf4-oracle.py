#!/usr/bin/env python3
"""CF decoding by netCDF4-python, as JSON, for packages/cf's tests.

    /usr/bin/python3 packages/cf/scripts/netcdf4-oracle.py > cases.json

Writes each case as a variable of a scratch netCDF-4 file with netCDF4, reads
it back raw (set_auto_maskandscale(False)) and decoded (netCDF4's automatic
mask-and-scale), and decodes CF times with netCDF4.num2date. Checked with
netCDF4 1.6.2, cftime 1.6.2, numpy 1.24.2 (Debian 12).
"""
import datetime
import json
import math
import os
import sys
import tempfile
import warnings

import netCDF4
import numpy as np

F32_FILL = netCDF4.default_fillvals["f4"]
CASES = [
    # name, dtype, values, attributes as (numpy dtype, value)
    ("packed_f32", "i2", [0, 1, -32767, 1200, -5], {"_FillValue": ("i2", -32767), "scale_factor": ("f4", 0.01), "add_offset": ("f4", 273.15)}),
    ("packed_f64", "i2", [0, 7, -1, 32000], {"_FillValue": ("i2", -1), "scale_factor": ("f8", 0.001), "add_offset": ("f8", -10.0)}),
    ("packed_scale_only", "i2", [3, -32767, 10], {"scale_factor": ("f4", 0.5)}),
    ("packed_int32", "i4", [100000, -2147483647, 5], {"scale_factor": ("f4", 0.25), "add_offset": ("f4", 1.0)}),
    ("float_default_fill", "f4", [1.5, F32_FILL, -2.0], {}),
    ("double_default_fill", "f8", [1.5, netCDF4.default_fillvals["f8"], 3.0], {}),
    ("int_missing_values", "i4", [1, -1, -2, -999, 5], {"_FillValue": ("i4", -999), "missing_value": ("i4", [-1, -2])}),
    ("missing_value_only", "i2", [4, -99, -32767, 6], {"missing_value": ("i2", -99)}),
    ("double_nan_fill", "f8", [1.0, float("nan"), 2.5], {"_FillValue": ("f8", float("nan"))}),
    ("byte_no_default", "i1", [1, -127, 3], {}),
    ("ubyte_no_default", "u1", [1, 255, 3], {}),
    ("ushort_default", "u2", [1, 65535, 3], {}),
    ("int64_default", "i8", [1, -9223372036854775806, 3], {}),
    ("fill_double_on_float", "f4", [1.0, -999.0, 2.0], {"_FillValue": ("f4", -999.0)}),
    ("time_hours_float", "f4", [0.0, 0.5, 36.25, 8760.0], {"units": "hours since 1990-01-01 00:00:00"}),
    ("time_days_int", "i4", [0, 31, 366, -1], {"units": "days since 2000-01-01", "calendar": "gregorian"}),
    ("time_seconds_int64", "i8", [0, 1700000000, -86400], {"units": "seconds since 1970-01-01T00:00:00Z", "calendar": "standard"}),
    ("time_days_double", "f8", [0.0, 0.25, 58000.125, 61000.5], {"units": "days since 1850-01-01 00:00:00", "calendar": "proleptic_gregorian"}),
    ("time_minutes_fill", "i4", [0, 90, -2147483647], {"units": "minutes since 2010-06-01 12:00", "_FillValue": ("i4", -2147483647)}),
    ("time_ms_offset", "f8", [0.0, 1500.0], {"units": "milliseconds since 2000-01-01 00:00:00.5"}),
    # valid ranges: netCDF4 masks values outside them, compared in the stored type
    ("valid_range_short", "i2", [-5, 0, 50, 100, 101, -32767], {"valid_range": ("i2", [0, 100])}),
    ("valid_range_wins", "i4", [1, 5, 9, 12], {"valid_range": ("i4", [0, 10]), "valid_min": ("i4", 5)}),
    ("valid_min_only", "f4", [0.1, 0.25, 0.3, float("nan")], {"valid_min": ("f4", 0.25)}),
    ("valid_max_only", "f8", [1.0, 3.0, 5.0, -1.0, float("nan")], {"valid_max": ("f8", 3.0), "_FillValue": ("f8", -1.0)}),
    ("valid_range_packed", "i2", [-10, 0, 500, 1000, 1001, -32767], {"valid_range": ("i2", [0, 1000]), "scale_factor": ("f4", 0.1), "_FillValue": ("i2", -32767)}),
    ("valid_range_three_values", "i2", [1, 5, 9], {"valid_range": ("i2", [0, 5, 10]), "valid_max": ("i2", 8)}),
    ("valid_range_inexact", "i2", [-5, 5, 50], {"valid_range": ("f8", [0.5, 10.5])}),
    ("valid_min_inexact_float", "f4", [0.1, 0.2, 0.3], {"valid_min": ("f8", 0.2), "missing_value": ("f8", 0.1)}),
    ("valid_range_int64", "i8", [-1, 3, 2**40], {"valid_range": ("i8", [0, 2**39])}),
    ("valid_range_ubyte", "u1", [0, 10, 200, 255], {"valid_range": ("u1", [5, 250])}),
    # float bounds on packed integers: netCDF4 compares them with the packed values (and masks all
    # of these); @lance-nd/cf reads them in unpacked units, as netCDF-Java does (its README).
    ("valid_range_unpacked_units", "i2", [27000, 28700, 36000, -32767], {"scale_factor": ("f4", 0.01), "valid_range": ("f4", [200.0, 350.0]), "_FillValue": ("i2", -32767)}),
    ("valid_range_time", "i4", [-1, 0, 31, 400], {"units": "days since 2000-01-01", "valid_range": ("i4", [0, 366])}),
]


def plain(v):
    """A JSON-safe value: NaN as the string "NaN", 64-bit integers as strings."""
    if isinstance(v, (np.floating, float)):
        f = float(v)
        return "NaN" if math.isnan(f) else f
    if isinstance(v, (np.integer, int)):
        return str(int(v))
    return v


def define(ds, name, dtype, size, attrs):
    """A variable `name` of `dtype` along its own dim, with the case's attributes."""
    ds.createDimension(name, size)
    fill = attrs.get("_FillValue")
    var = ds.createVariable(name, dtype, (name,), fill_value=np.array(fill[1], fill[0]) if fill else None)
    for key, value in attrs.items():
        if key == "_FillValue":
            continue
        var.setncattr(key, value if isinstance(value, str) else np.array(value[1], value[0]))
    return var


def ranged():
    """The cases with a valid range attribute."""
    return [c for c in CASES if any(key.startswith("valid_") for key in c[3])]


def raw_values(var):
    """The stored values of a variable, without netCDF4's mask-and-scale."""
    var.set_auto_maskandscale(False)
    return var[:]


def main():
    out = []
    warnings.simplefilter("ignore")  # netCDF4 warns of the attributes it ignores (the inexact cases)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "cases.nc")
        with netCDF4.Dataset(path, "w") as ds:
            for name, dtype, values, attrs in CASES:
                var = define(ds, name, dtype, len(values), attrs)
                var.set_auto_maskandscale(False)
                var[:] = np.array(values, dtype)
        rewritten = os.path.join(tmp, "rewritten.nc")
        with netCDF4.Dataset(path) as ds, netCDF4.Dataset(rewritten, "w") as again:
            for name, dtype, values, attrs in ranged():
                # netCDF4 writes the masked, unpacked values back: what it stores for values outside the range.
                define(again, name, dtype, len(values), attrs)[:] = ds.variables[name][:]
        with netCDF4.Dataset(path) as ds, netCDF4.Dataset(rewritten) as again:
            for name, dtype, values, attrs in CASES:
                var = ds.variables[name]
                var.set_auto_maskandscale(False)
                raw = var[:]
                var.set_auto_maskandscale(True)
                decoded = np.ma.masked_array(var[:])
                case = {
                    "name": name,
                    "dtype": np.dtype(dtype).name,
                    "raw": [plain(v) for v in raw],
                    "attrs": {k: {"dtype": "str", "value": v} if isinstance(v, str) else {"dtype": np.dtype(t).name, "value": [plain(x) for x in np.atleast_1d(np.array(v, t))]} for k, (t, v) in ((k, a if not isinstance(a, str) else (None, a)) for k, a in attrs.items())},
                    "decoded": {
                        "dtype": decoded.dtype.name,
                        "values": [None if m else plain(v) for v, m in zip(decoded.data, np.ma.getmaskarray(decoded))],
                    },
                    "rewritten": [plain(v) for v in raw_values(again.variables[name])] if name in again.variables else None,
                }
                if "units" in attrs:
                    dates = netCDF4.num2date(decoded, var.units, getattr(var, "calendar", "standard"), only_use_cftime_datetimes=False, only_use_python_datetimes=True)
                    epoch = datetime.datetime(1970, 1, 1)
                    case["epochMicroseconds"] = [
                        None if d is None or d is np.ma.masked else str((d.replace(tzinfo=None) - epoch) // datetime.timedelta(microseconds=1))
                        for d in np.ma.masked_array(dates).tolist()
                    ]
                out.append(case)
    json.dump({"netCDF4": netCDF4.__version__, "numpy": np.__version__, "cases": out}, sys.stdout)


if __name__ == "__main__":
    main()
