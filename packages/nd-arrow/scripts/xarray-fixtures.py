"""Writes test/fixtures/xarray-broadcast.json: xarray's broadcast and
to_dataframe results for a few small datasets, the reference that
test/xarray.test.ts compares nd-arrow's broadcast and flatten with.

Regenerate (from packages/nd-arrow), with Debian 12's python3-xarray
2023.01.0, python3-numpy 1.24.2 and python3-pandas 1.5.3
(`apt-get install -y python3-xarray python3-numpy`):

    /usr/bin/python3 scripts/xarray-fixtures.py

The output is deterministic: fixed values, no randomness, stable key order.

Fixture layout, per dataset:
- arrays: the batch, in batch order: name, dims ([name, size] pairs), type
  (the Arrow type name the test builds), values (row-major, null = missing).
- grid: the batch grid by the nd-arrow rule (dims of the highest-rank array,
  ties: the first, then the other dims in order of first appearance).
- broadcast: name -> values of xr.broadcast(*arrays), transposed to the grid.
- flatten: column name -> values of ds.to_dataframe(dim_order=grid) with the
  index reset: the dim columns (coordinate values, or 0..n-1 where a dim
  has no coordinate variable), then the data variables in batch order.
"""

import json
import math
import pathlib

import numpy as np
import xarray as xr

OUT = pathlib.Path(__file__).resolve().parent.parent / "test" / "fixtures" / "xarray-broadcast.json"

ARROW_TYPES = {
    "float64": "Float64",
    "float32": "Float32",
    "int64": "Int64",
    "int32": "Int32",
    "int16": "Int16",
    "bool": "Bool",
    "object": "Utf8",
}


def plain(value):
    """A JSON value for one numpy element; NaN (xarray's missing value) is null."""
    if isinstance(value, (float, np.floating)):
        return None if math.isnan(value) else float(value)
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    return str(value)


def values_of(array):
    return [plain(v) for v in np.asarray(array).ravel(order="C")]


def grid_of(arrays):
    ranked = max(arrays, key=lambda a: a.ndim)  # max keeps the first of ties
    grid = dict((d, ranked.sizes[d]) for d in ranked.dims)
    for a in arrays:
        for d in a.dims:
            grid.setdefault(d, a.sizes[d])
    return grid


def case(name, ds, order):
    """One fixture entry; `order` is the batch order of the arrays (data vars and coords)."""
    arrays = [ds[n].variable for n in order]
    grid = grid_of(arrays)
    dims = list(grid)
    broadcast = xr.broadcast(*[ds[n] for n in order])
    data_vars = [n for n in order if n not in ds.dims]
    frame = ds[data_vars].to_dataframe(dim_order=dims).reset_index()
    return {
        "name": name,
        "arrays": [
            {
                "name": n,
                "dims": [[d, int(ds[n].sizes[d])] for d in ds[n].dims],
                "type": ARROW_TYPES[str(ds[n].dtype)],
                "values": values_of(ds[n].values),
            }
            for n in order
        ],
        "grid": [[d, int(s)] for d, s in grid.items()],
        "broadcast": {n: values_of(b.transpose(*dims).values) for n, b in zip(order, broadcast)},
        "flatten": {c: values_of(frame[c].to_numpy()) for c in frame.columns},
    }


def coords_and_transposed():
    time = np.array([0, 6], dtype="int64")
    lat = np.array([-45.0, 0.0, 45.0])
    lon = np.array([0.0, 90.0, 180.0, 270.0])
    temp = np.arange(24, dtype="float64").reshape(2, 3, 4) / 4 + 270
    temp[1, 2, 3] = np.nan
    mask = (np.arange(12).reshape(4, 3) % 3 == 0)  # dims (lon, lat): transposed against the grid
    ds = xr.Dataset(
        {"temp": (("time", "lat", "lon"), temp), "mask": (("lon", "lat"), mask)},
        coords={"time": time, "lat": lat, "lon": lon},
    )
    return case("coords and a transposed 2-D array", ds, ["temp", "mask", "time", "lat", "lon"])


def size_one_dim_and_strings():
    station = np.array(["north", "south"], dtype=object)
    pressure = (np.arange(6, dtype="float32").reshape(1, 2, 3) + 0.5) * 2
    counts = np.array([3, -1, 7], dtype="int16")
    ds = xr.Dataset(
        {"pressure": (("level", "station", "x"), pressure), "counts": (("x",), counts)},
        coords={"station": station},
    )
    return case("a size-1 dim, a string coordinate, a dim without coordinate", ds, ["pressure", "counts", "station"])


def scalar_and_vectors():
    ds = xr.Dataset(
        {
            "offset": ((), np.float64(1.5)),
            "u": (("y",), np.array([1, 2, 3], dtype="int32")),
            "v": (("z", "y"), np.array([[10, 20, 30], [40, 50, 60]], dtype="int64")),
            "flag": (("z",), np.array([True, False])),
        },
        coords={"z": np.array([100.5, 200.5])},
    )
    return case("a scalar, 1-D arrays on different dims", ds, ["offset", "u", "v", "flag", "z"])


def main():
    fixture = {
        "generator": "packages/nd-arrow/scripts/xarray-fixtures.py",
        "xarray": "2023.01.0 (Debian 12 python3-xarray)",
        "numpy": np.__version__,
        "datasets": [coords_and_transposed(), size_one_dim_and_strings(), scalar_and_vectors()],
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(fixture, indent=1) + "\n")
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
