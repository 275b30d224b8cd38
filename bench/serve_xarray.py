"""The xarray side of bench/serve.ts (Debian's python3-xarray, python3-zarr 2,
python3-fsspec, python3-aiohttp, python3-dask).

  python3 bench/serve_xarray.py copy <url> <store>
      Reads the served group with xarray and writes it with zarr-python as a
      Zarr v2 store on disk with the same chunks and compressor (consolidated).
  python3 bench/serve_xarray.py time <url> <store> <reps>
      Times xr.open_zarr(...).load() of the served group and of the store on
      disk, interleaved, best of <reps>; prints JSON: ms and a checksum each.
"""
import json
import sys
import time

import numpy as np
import xarray as xr


def copy(url, store):
    served = xr.open_zarr(url, consolidated=True)
    encoding = {
        name: {"chunks": var.encoding["chunks"], "compressor": var.encoding.get("compressor")}
        for name, var in served.variables.items()
    }
    for var in served.variables.values():
        var.encoding = {}
    served.to_zarr(store, mode="w", consolidated=True, encoding=encoding)


def checksum(ds):
    return float(sum(np.nansum(ds[name].values, dtype=np.float64) for name in sorted(ds.data_vars)))


def timed(path):
    started = time.perf_counter()
    ds = xr.open_zarr(path, consolidated=True).load()
    return (time.perf_counter() - started) * 1000, checksum(ds)


def time_both(url, store, reps):
    best = {"http": float("inf"), "disk": float("inf")}
    sums = {}
    for _ in range(int(reps)):
        for name, path in (("http", url), ("disk", store)):
            ms, sums[name] = timed(path)
            best[name] = min(best[name], ms)
    print(json.dumps({"httpMs": best["http"], "diskMs": best["disk"], "httpSum": sums["http"], "diskSum": sums["disk"]}))


if __name__ == "__main__":
    command, *args = sys.argv[1:]
    {"copy": copy, "time": time_both}[command](*args)
