"""Expected isel / sel results of a netCDF file, computed by xarray.

Usage: /usr/bin/python3 xarray-dataset-oracle.py <file.nc> <out.json>

Writes a JSON list of cases: {"name", "isel" or "sel" (dim -> index, [start,
stop), value or [start, stop]), "method" (optional), "arrays": {name: {"dims":
[[dim, size], ...], "values": [...]}}}. Values are raw (no CF masking,
scaling or time decoding), as `lance-nd import` stores them. A `sel` range
[a, b] is xarray's slice(a, b), as lance-nd takes it: on an ascending
coordinate a start past the stop selects nothing.
"""
import json
import sys

import xarray as xr

CASES = [
    {"name": "isel window across chunks", "isel": {"time": 0, "level": [1, 3], "lat": [1, 4], "lon": [2, 9]}},
    {"name": "isel inside one chunk", "isel": {"lat": [2, 4], "lon": [4, 8]}},
    {"name": "isel one latitude", "isel": {"lat": 3}},
    {"name": "sel ranges", "sel": {"lat": [25, 45], "lon": [-140, -50]}},
    {"name": "sel ranges, start past the stop: empty", "sel": {"lat": [45, 25], "lon": [-50, -140]}},
    {"name": "sel nearest", "sel": {"lat": 33, "lon": -100}, "method": "nearest"},
    {"name": "sel exact level", "sel": {"level": 850}},
]


def selection(case):
    if "isel" in case:
        return {d: (slice(*v) if isinstance(v, list) else v) for d, v in case["isel"].items()}, {}
    out = {}
    for d, v in case["sel"].items():
        out[d] = slice(*v) if isinstance(v, list) else v
    return out, ({"method": case["method"]} if "method" in case else {})


def main(path, out_path):
    ds = xr.open_dataset(path, mask_and_scale=False, decode_times=False)
    results = []
    for case in CASES:
        sel, kwargs = selection(case)
        part = ds.isel(sel) if "isel" in case else ds.sel(sel, **kwargs)
        arrays = {}
        for name, var in part.variables.items():
            arrays[name] = {
                "dims": [[d, int(part.sizes[d])] for d in var.dims],
                "values": [float(x) for x in var.values.reshape(-1)],
            }
        results.append({**case, "arrays": arrays})
    with open(out_path, "w") as f:
        json.dump(results, f)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
