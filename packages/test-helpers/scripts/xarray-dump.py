#!/usr/bin/env python3
"""A netCDF file as xarray sees it with decode_cf=False, as JSON, for tests.

    /usr/bin/python3 packages/test-helpers/scripts/xarray-dump.py [--mask] file.nc [file.nc ...]

Every variable with its dims, dtype, flat values (64-bit integers and NaN as
strings, chars one per value), attributes with
their dtypes, the encoding xarray reports (chunk sizes, zlib level,
unlimited dims), and the file's order of its dims (dimOrder). With --mask, values come from netCDF4-python's automatic
mask-and-scale instead (masked values are null) and times from num2date, as
epoch microseconds. Prints a JSON list, one entry per file.
"""
import datetime
import json
import math
import sys

import netCDF4
import numpy as np
import xarray as xr


def plain(v):
    if isinstance(v, bytes):
        return v.decode("utf-8", "replace")
    if isinstance(v, (np.floating, float)):
        f = float(v)
        return "NaN" if math.isnan(f) else f
    if isinstance(v, (np.integer, int)):
        i = int(v)
        return str(i) if abs(i) > 2**53 else i
    if isinstance(v, np.bytes_):
        return v.decode("utf-8", "replace")
    return str(v)


def attr(v):
    a = np.asarray(v)
    if a.dtype.kind in "SU" or isinstance(v, str):
        return {"dtype": "str", "value": plain(v) if not isinstance(v, str) else v}
    return {"dtype": a.dtype.name, "value": [plain(x) for x in a.reshape(-1)]}


def dump(path):
    out = {"dims": {}, "dimOrder": [], "unlimited": [], "variables": {}, "attrs": {}}
    # The file's own order of its dims, as xarray's netCDF4 store reads them
    # (Dataset.dims orders them by the variables instead).
    store = xr.backends.NetCDF4DataStore.open(path)
    try:
        out["dimOrder"] = list(store.get_dimensions())
    finally:
        store.close()
    with xr.open_dataset(path, decode_cf=False, mask_and_scale=False) as ds:
        out["dims"] = {k: int(v) for k, v in ds.dims.items()}
        out["unlimited"] = sorted(ds.encoding.get("unlimited_dims", []))
        out["attrs"] = {k: attr(v) for k, v in ds.attrs.items()}
        for name, var in ds.variables.items():
            values = var.values
            if values.dtype.kind == "S":
                flat = [plain(x) for x in values.reshape(-1)]
            else:
                flat = [plain(x) for x in values.reshape(-1)]
            enc = var.encoding
            out["variables"][name] = {
                "dims": list(var.dims),
                "dtype": values.dtype.name if values.dtype.kind != "S" else "char",
                "shape": list(values.shape),
                "values": flat,
                "attrs": {k: attr(v) for k, v in var.attrs.items()},
                "chunksizes": list(enc["chunksizes"]) if enc.get("chunksizes") else None,
                "complevel": enc.get("complevel") if enc.get("zlib") else None,
            }
    return out


def masked(path):
    out = {}
    with netCDF4.Dataset(path) as ds:
        for name, var in ds.variables.items():
            if var.dtype.kind not in "iuf":
                continue
            data = np.ma.masked_array(var[:])
            entry = {"dtype": data.dtype.name, "values": [None if m else plain(v) for v, m in zip(data.data.reshape(-1), np.ma.getmaskarray(data).reshape(-1))]}
            units = getattr(var, "units", "")
            if " since " in units:
                dates = netCDF4.num2date(data, units, getattr(var, "calendar", "standard"), only_use_cftime_datetimes=False, only_use_python_datetimes=True)
                epoch = datetime.datetime(1970, 1, 1)
                entry["epochMicroseconds"] = [None if d is None or d is np.ma.masked else (d.replace(tzinfo=None) - epoch) // datetime.timedelta(microseconds=1) for d in np.ma.masked_array(dates).reshape(-1).tolist()]
            out[name] = entry
    return out


if __name__ == "__main__":
    paths = [a for a in sys.argv[1:] if a != "--mask"]
    read = masked if "--mask" in sys.argv[1:] else dump
    print(json.dumps([read(p) for p in paths]))
