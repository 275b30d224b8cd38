#!/usr/bin/python3
"""Float16 rounding vectors from numpy: doubles and the half bits numpy gives.

Writes test/fixtures/float16-numpy.json (or prints it with --print). Each
case is a name, the IEEE double as 16 hex digits (so NaN, -0 and infinities
survive JSON) and numpy's float16 bits. Edge cases first, then seeded random
doubles over the whole half range. Run: /usr/bin/python3 scripts/float16-vectors.py
"""
import json
import struct
import sys
from pathlib import Path

import numpy as np

EDGES = [
    ("zero", 0.0),
    ("minus zero", -0.0),
    ("one", 1.0),
    ("largest half", 65504.0),
    ("above the largest half, below the overflow point", 65519.99),
    ("overflow point 65520 (half way to 2^16)", 65520.0),
    ("minus overflow point", -65520.0),
    ("70000", 70000.0),
    ("1e300", 1e300),
    ("-1e300", -1e300),
    ("infinity", float("inf")),
    ("minus infinity", float("-inf")),
    ("NaN", float("nan")),
    ("smallest normal 2^-14", 2.0**-14),
    ("smallest normal, negative: -0.000061035156", -0.000061035156),
    ("largest subnormal 1023 * 2^-24", 1023 * 2.0**-24),
    ("tie above the largest subnormal, rounds into the smallest normal", 1023.5 * 2.0**-24),
    ("smallest subnormal 2^-24", 2.0**-24),
    ("minus smallest subnormal", -(2.0**-24)),
    ("half the smallest subnormal: tie to 0", 2.0**-25),
    ("just above half the smallest subnormal", 2.0**-25 * (1 + 2.0**-40)),
    ("minus half the smallest subnormal: tie to -0", -(2.0**-25)),
    ("underflow 2^-26", 2.0**-26),
    ("minus underflow 2^-26", -(2.0**-26)),
    ("1e-10", 1e-10),
    ("subnormal tie 1.5 * 2^-24 to even 2", 1.5 * 2.0**-24),
    ("subnormal tie 2.5 * 2^-24 to even 2", 2.5 * 2.0**-24),
    ("tie 1 + 2^-11 to even 1", 1 + 2.0**-11),
    ("tie 1 + 3 * 2^-11 to even 1 + 2^-9", 1 + 3 * 2.0**-11),
    ("above the tie 1 + 2^-11 by 2^-40 (a Float32 detour rounds it down)", 1 + 2.0**-11 + 2.0**-40),
    ("integer tie 2049 to 2048", 2049.0),
    ("integer tie 2051 to 2052", 2051.0),
    ("tie 65488 + 8 to even 65504", 65496.0),
    ("0.1", 0.1),
    ("pi", 3.141592653589793),
    ("-1/3", -1 / 3),
]


def hex_of(x):
    return struct.pack(">d", x).hex()


def half_bits(x):
    with np.errstate(over="ignore"):
        return int(np.array([x], dtype=np.float64).astype(np.float16).view(np.uint16)[0])


def cases():
    out = [{"name": n, "double": hex_of(x), "half": half_bits(x)} for n, x in EDGES]
    rng = np.random.default_rng(13)
    for i in range(400):
        x = float(rng.uniform(1, 2) * 2.0 ** int(rng.integers(-27, 17)) * (1 if rng.integers(2) else -1))
        out.append({"name": f"random {i}", "double": hex_of(x), "half": half_bits(x)})
    return out


if __name__ == "__main__":
    rows = ",\n".join(json.dumps(c) for c in cases())
    text = f'{{"numpy": {json.dumps(np.__version__)}, "cases": [\n{rows}\n]}}\n'
    if "--print" in sys.argv:
        sys.stdout.write(text)
    else:
        target = Path(__file__).resolve().parent.parent / "test" / "fixtures" / "float16-numpy.json"
        target.write_text(text)
        print(f"wrote {target}")
