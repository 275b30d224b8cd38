#!/usr/bin/env python3
"""The groups of a netCDF file as netCDF4-python walks them: one path a line, parents first."""
import sys

import netCDF4


def walk(g):
    for child in g.groups.values():
        yield child.path.lstrip("/")
        yield from walk(child)


with netCDF4.Dataset(sys.argv[1]) as f:
    print("\n".join(walk(f)))
