#!/usr/bin/env bash
# Makes the netCDF test files of the netcdf and cli tests into out-dir (their
# test/fixtures/generated/, git-ignored) with the reference tool: `ncgen` of
# netCDF-C (Debian package netcdf-bin; the files in the tests were checked
# with netCDF-C 4.9.0). The tests run it through ensureNetcdfFixtures.
#
#   bash packages/test-helpers/scripts/make-netcdf-fixtures.sh <out-dir>
#
# Files:
#   ocean-classic.nc   netCDF-3 classic (CDF\x01): sst(time, lat, lon) float with
#                      _FillValue, scale_factor, add_offset; lat/lon/time
#                      coordinates with units; an UNLIMITED time; a char variable.
#   ocean-64bit.nc     the same in the 64-bit offset format (CDF\x02).
#   ocean-nc4.nc       netCDF-4: the same plus NC_STRING, int64, ubyte, ushort
#                      variables, a dimension without coordinate variable and a
#                      group `extra` (readers ignore it).
#   waves-nc4.nc       netCDF-4 with other variables (schema evolution on import).
#   corrupt.nc         the first 600 bytes of ocean-nc4.nc (a truncated file).
set -euo pipefail

out="${1:?usage: make-netcdf-fixtures.sh <out-dir>}"
command -v ncgen >/dev/null || { echo "make-netcdf-fixtures: ncgen not found (apt-get install netcdf-bin)" >&2; exit 3; }
mkdir -p "$out"
# Files are made in a staging folder next to the output and renamed into
# place, so a test process running this at the same time never sees half a file.
tmp="$out/.stage.$$"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT

# Shared by the classic and netCDF-4 ocean files: 3 times x 4 lats x 5 lons.
ocean_body='
dimensions:
  time = UNLIMITED ; // (3 currently)
  lat = 4 ;
  lon = 5 ;
  strlen = 8 ;
variables:
  double time(time) ;
    time:units = "days since 2000-01-01" ;
    time:calendar = "standard" ;
    time:standard_name = "time" ;
  float lat(lat) ;
    lat:units = "degrees_north" ;
    lat:standard_name = "latitude" ;
  float lon(lon) ;
    lon:units = "degrees_east" ;
  float sst(time, lat, lon) ;
    sst:long_name = "sea surface temperature" ;
    sst:units = "degC" ;
    sst:_FillValue = -999.f ;
    sst:scale_factor = 0.01f ;
    sst:add_offset = 20.f ;
    sst:valid_range = -500.f, 1500.f ;
  short mask(lat, lon) ;
    mask:_FillValue = -1s ;
    mask:flag_values = 0s, 1s ;
  byte quality(time) ;
    quality:scale_factor = 0.5 ;
  int count(time) ;
  char station(time, strlen) ;
    station:long_name = "station code" ;

// global attributes:
  :title = "Ocean fixture" ;
  :institution = "lance-nd tests" ;
  :Conventions = "CF-1.8" ;
  :version = 3 ;
  :history_ids = 1, 2, 3 ;
'
ocean_data='
data:
  time = 0, 31, 59 ;
  lat = -45, -15, 15, 45 ;
  lon = 0, 72, 144, 216, 288 ;
  sst =
    100, 200, 300, 400, 500,
    600, 700, 800, 900, 1000,
    1100, 1200, 1300, 1400, 1500,
    1, 2, 3, 4, -999,
    101, 201, 301, 401, 501,
    601, 701, 801, 901, 1001,
    1101, 1201, 1301, 1401, 1501,
    11, 12, 13, 14, -999,
    102, 202, 302, 402, 502,
    602, 702, 802, 902, 1002,
    1102, 1202, 1302, 1402, 1502,
    21, 22, 23, 24, -999 ;
  mask =
    0, 0, 1, 1, 0,
    0, 1, 1, 0, 0,
    1, 1, 0, 0, -1,
    0, 0, 0, 1, 1 ;
  quality = -1, 0, 127 ;
  count = 7, -2147483647, 2147483647 ;
  station = "ALPHA", "BRAVO-12", "C" ;
'

cat > "$tmp/ocean-classic.cdl" <<EOF
netcdf ocean-classic {
$ocean_body
$ocean_data
}
EOF

cat > "$tmp/ocean-nc4.cdl" <<EOF
netcdf ocean-nc4 {
$ocean_body
  string name(lat) ;
    name:long_name = "zone name" ;
  int64 big(lon) ;
    big:units = "1" ;
  ubyte flags(lon) ;
    flags:_FillValue = 255UB ;
  ushort depth(lat) ;
  double level(nv) ;
  string :source = "ncgen CDL" ;
  :offset64 = 9007199254740993LL ;
$ocean_data
  name = "south", "tropics S", "tropics N", "north" ;
  big = -9223372036854775807, 0, 1, 9007199254740993, 9223372036854775807 ;
  flags = 0, 1, 128, 254, 255 ;
  depth = 0, 10, 65535, 20 ;
  level = 1.5, 2.5 ;

group: extra {
  dimensions:
    k = 2 ;
  variables:
    int hidden(k) ;
  data:
    hidden = 1, 2 ;
  }
}
EOF
# `nv` is declared after the shared dims: a dimension with a variable not named
# like it, so its scale is dimension-only.
sed -i 's/^  strlen = 8 ;$/  strlen = 8 ;\n  nv = 2 ;/' "$tmp/ocean-nc4.cdl"

cat > "$tmp/waves-nc4.cdl" <<'EOF'
netcdf waves-nc4 {
dimensions:
  time = UNLIMITED ; // (2 currently)
  lat = 4 ;
  lon = 5 ;
variables:
  double time(time) ;
    time:units = "days since 2000-01-01" ;
  float lat(lat) ;
    lat:units = "degrees_north" ;
  float lon(lon) ;
    lon:units = "degrees_east" ;
  float swh(time, lat, lon) ;
    swh:long_name = "significant wave height" ;
    swh:units = "m" ;
  int peak_period(time) ;
    peak_period:units = "s" ;

// global attributes:
  :title = "Waves fixture" ;
  :Conventions = "CF-1.8" ;
data:
  time = 90, 120 ;
  lat = -45, -15, 15, 45 ;
  lon = 0, 72, 144, 216, 288 ;
  swh = 1, 1.5, 2, 2.5, 3, 1, 1.5, 2, 2.5, 3, 1, 1.5, 2, 2.5, 3, 1, 1.5, 2, 2.5, 3,
        0.5, 1, 1.5, 2, 2.5, 0.5, 1, 1.5, 2, 2.5, 0.5, 1, 1.5, 2, 2.5, 0.5, 1, 1.5, 2, 2.5 ;
  peak_period = 9, 11 ;
}
EOF

ncgen -k classic -o "$tmp/ocean-classic.nc" "$tmp/ocean-classic.cdl"
ncgen -k 64-bit-offset -o "$tmp/ocean-64bit.nc" "$tmp/ocean-classic.cdl"
ncgen -k netCDF-4 -o "$tmp/ocean-nc4.nc" "$tmp/ocean-nc4.cdl"
ncgen -k netCDF-4 -o "$tmp/waves-nc4.nc" "$tmp/waves-nc4.cdl"
head -c 600 "$tmp/ocean-nc4.nc" > "$tmp/corrupt.nc"
for f in ocean-classic.nc ocean-64bit.nc ocean-nc4.nc waves-nc4.nc corrupt.nc; do mv -f "$tmp/$f" "$out/$f"; done
echo "make-netcdf-fixtures: wrote 5 files to $out"
