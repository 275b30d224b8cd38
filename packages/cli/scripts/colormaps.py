#!/usr/bin/python3
"""Writes packages/cli/src/plot/colormap-data.ts: the 256-entry RGB tables of
the colour maps the CLI draws with (viridis, magma, inferno, plasma, cividis),
taken from matplotlib (entry i is matplotlib.colormaps[name](i / 255), each
channel rounded to 0..255).

    /usr/bin/python3 packages/cli/scripts/colormaps.py   # from the repository root

Needs matplotlib (Debian: apt-get install python3-matplotlib).
test/plot/colormap.test.ts checks the written tables against matplotlib.
"""
import pathlib

import matplotlib
import numpy as np

NAMES = ["viridis", "magma", "inferno", "plasma", "cividis"]
OUT = pathlib.Path(__file__).resolve().parent.parent / "src" / "plot" / "colormap-data.ts"


def table(name: str) -> bytes:
    rgba = matplotlib.colormaps[name](np.arange(256) / 255)
    return bytes(np.round(rgba[:, :3] * 255).astype(np.uint8).ravel())


def main() -> None:
    lines = [
        "/**",
        " * The colour maps' tables, from matplotlib " + matplotlib.__version__ + ": per map 256 RGB triples",
        " * as hex (entry i is the colour of i / 255), 16 colours a line. Written by",
        " * scripts/colormaps.py; do not edit by hand.",
        " */",
        "",
        "/** The hex RGB tables by colour map name. */",
        "export const COLORMAP_HEX: Readonly<Record<string, string>> = {",
    ]
    for name in NAMES:
        hex_ = table(name).hex()
        rows = [hex_[i : i + 96] for i in range(0, len(hex_), 96)]
        lines.append(f"  {name}: [")
        lines.extend(f'    "{row}",' for row in rows)
        lines.append('  ].join(""),')
    lines.append("};")
    OUT.write_text("\n".join(lines) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
