"""The oracle of test/netcdf/calendars.test.ts: a netCDF file as
xarray.open_dataset(path, use_cftime=True) decodes its times, as JSON: each
time variable's dates as cftime prints them (str), and the dates of a
selection by date strings on a time coordinate (xarray's .sel on a
CFTimeIndex).

usage: cftime-oracle.py <file.nc> <coordinate>=<from>:<to> ..."""
import json
import sys

import xarray as xr

ds = xr.open_dataset(sys.argv[1], use_cftime=True)
times = {
    name: [str(v) for v in var.values.ravel()]
    for name, var in ds.variables.items()
    if var.dtype == object
}
selections = {}
for spec in sys.argv[2:]:
    name, bounds = spec.split("=")
    start, stop = bounds.split(":")
    selections[spec] = [str(v) for v in ds[name].sel({name: slice(start, stop)}).values]
json.dump({"times": times, "selections": selections}, sys.stdout)
