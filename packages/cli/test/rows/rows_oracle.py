"""xarray's side of the tests of reads and exports of whatever rows a table
holds (rows-read.test.ts, rows-property.test.ts): files made with xarray,
and xarray's view of a source compared with what lance-nd wrote or serves.

Commands (each prints one JSON line):
  zero-length <out.nc>            the issue's dataset with a zero-length dim
  concat-files <dir>              tas_2001.nc .. tas_2003.nc, 4 days each
  random <seed> <dir>             a random dataset (see random_dataset)
  compare <sources> <target> [<isel json> [<variables json>]]
      xarray's view of <sources> (comma-separated: files combined along
      time, as open_mfdataset does), isel'd and narrowed to the variables,
      against <target> (a netCDF file, a Zarr store or a served URL).
  compare-all <json>              compare for each [sources, target, isel]
                                  of a list, one result each
  values <source> <isel json>     each variable of the isel'd source: dims,
                                  shape and values (NaN as null)
"""
import json
import os
import sys

import numpy as np
import pandas as pd
import xarray as xr


def zero_length(out):
    ds = xr.Dataset({"v": (("time", "lat"), np.zeros((0, 3)))}, coords={"lat": [1, 2, 3]}, attrs={"title": "t"})
    ds.to_netcdf(out)
    return {"path": out}


def concat_files(folder):
    paths = []
    for k, year in enumerate([2001, 2002, 2003]):
        time = pd.date_range(f"{year}-01-01", periods=4, freq="D")
        tas = np.arange(4 * 3 * 2, dtype="f4").reshape(4, 3, 2) + 100 * k
        ds = xr.Dataset(
            {"tas": (("time", "lat", "lon"), tas, {"units": "K"})},
            coords={"time": time, "lat": [10.0, 20.0, 30.0], "lon": [1.0, 2.0]},
            attrs={"title": "tas"},
        )
        path = os.path.join(folder, f"tas_{year}.nc")
        ds.to_netcdf(path, encoding={"time": {"units": "days since 2000-01-01"}})
        paths.append(path)
    return {"paths": paths}


def random_dataset(seed, folder):
    """1-4 dims (a zero-length one in some cases, the first a record dim in
    netCDF), data variables lacking some dims, coordinates on some dims, a
    scalar in some cases; written as netCDF-4, netCDF classic or Zarr v2."""
    rng = np.random.default_rng(seed)
    rank = int(rng.integers(1, 5))
    names = [f"d{k}" for k in range(rank)]
    sizes = [int(rng.integers(1, 7)) for _ in names]
    if rng.random() < 0.2:
        sizes[int(rng.integers(0, rank))] = 0
    data_vars = {}
    for k in range(int(rng.integers(1, 4))):
        keep = [d for d in names if rng.random() < 0.7] or [names[0]]
        if k == 0:
            keep = names
        shape = [sizes[names.index(d)] for d in keep]
        dtype = rng.choice(["f4", "f8", "i4", "i2"])
        values = (rng.standard_normal(shape) * 100).astype(dtype)
        data_vars[f"v{k}"] = (tuple(keep), values, {"units": f"unit{k}"})
    if rng.random() < 0.4:
        data_vars["scalar"] = ((), np.float64(rng.standard_normal()), {"long_name": "a scalar"})
    coords = {}
    for d, size in zip(names, sizes):
        if rng.random() < 0.6:
            coords[d] = (d, np.cumsum(rng.integers(1, 5, size)).astype("f8") + 0.5, {"units": "m"})
    ds = xr.Dataset(data_vars, coords=coords, attrs={"title": f"case {seed}"})
    kind = ["netcdf4", "classic", "zarr"][int(rng.integers(0, 3))]
    if kind == "classic" and 0 in sizes[1:]:
        kind = "netcdf4"  # a classic file's one zero-length dim is its record dim
    if kind == "zarr":
        path = os.path.join(folder, "source.zarr")
        ds.to_zarr(path, mode="w")
    else:
        path = os.path.join(folder, "source.nc")
        ds.to_netcdf(
            path,
            format="NETCDF4" if kind == "netcdf4" else "NETCDF3_CLASSIC",
            unlimited_dims=[names[0]],
        )
    chunk = {d: int(rng.integers(1, max(size, 1) + 1)) for d, size in zip(names, sizes) if rng.random() < 0.6}
    # The dims as the file holds them: netCDF's record dim has as many records as were written, none when
    # another dim of its variables is zero-length.
    with open_any(path) as written:
        held = {d: int(written.sizes[d]) for d in names}
    return {"path": path, "kind": kind, "dims": held, "chunk": chunk}


def open_any(path):
    if path.startswith("http") or path.endswith(".zarr"):
        return xr.open_zarr(path, consolidated=None if not path.startswith("http") else True)
    return xr.open_dataset(path)


def view_of(sources):
    paths = sources.split(",")
    if len(paths) == 1:
        return open_any(paths[0])
    return xr.open_mfdataset(paths, combine="by_coords")


def compare(sources, target, isel=None, variables=None):
    a = view_of(sources)
    if isel:
        a = a.isel({d: (slice(*v) if isinstance(v, list) else v) for d, v in isel.items()})
    if variables is not None:
        a = a[variables]
    a = a.load()
    b = open_any(target).load()
    same = a.identical(b)
    return {"identical": bool(same), "detail": "" if same else f"{a}\n---\n{b}"}


def values(source, isel):
    a = open_any(source).isel({d: (slice(*v) if isinstance(v, list) else v) for d, v in isel.items()}).load()
    out = {}
    for name, var in a.variables.items():
        flat = np.asarray(var.values).reshape(-1)
        out[name] = {
            "dims": list(var.dims),
            "shape": list(var.shape),
            "values": [None if isinstance(v, float) and np.isnan(v) else v for v in flat.tolist()],
        }
    return out


def main(args):
    if args[0] == "zero-length":
        return zero_length(args[1])
    if args[0] == "concat-files":
        return concat_files(args[1])
    if args[0] == "random":
        return random_dataset(int(args[1]), args[2])
    if args[0] == "compare":
        isel = json.loads(args[3]) if len(args) > 3 else None
        variables = json.loads(args[4]) if len(args) > 4 else None
        return compare(args[1], args[2], isel, variables)
    if args[0] == "compare-all":
        return [compare(sources, target, isel) for sources, target, isel in json.loads(args[1])]
    if args[0] == "values":
        return values(args[1], json.loads(args[2]))
    raise SystemExit(f"unknown command {args[0]}")


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1:])))
