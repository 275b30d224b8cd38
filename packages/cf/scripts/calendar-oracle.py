"""The oracle of test/calendar.test.ts: netCDF4.num2date of each case read as
JSON from stdin ({"cases": [{"units", "calendar", "values"}]}), printed as
JSON: per case the dates as [year, month, day, hour, minute, second,
microsecond] and as cftime prints them (str)."""
import json
import sys

import netCDF4

cases = json.load(sys.stdin)["cases"]
out = []
for case in cases:
    dates = netCDF4.num2date(case["values"], case["units"], case["calendar"], only_use_cftime_datetimes=True)
    out.append({
        "fields": [[d.year, d.month, d.day, d.hour, d.minute, d.second, d.microsecond] for d in dates],
        "text": [str(d) for d in dates],
    })
json.dump({"results": out}, sys.stdout)
