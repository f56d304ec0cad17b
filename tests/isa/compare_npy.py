#!/usr/bin/env python3
"""compare_npy.py DIR_A DIR_B [--exact] [--rtol R]: compares every output_*.npy of two runs.

Without numpy (plain struct): float32/float16 arrays must agree within a relative L2 error of
--rtol (default 1e-4), integer arrays exactly; --exact requires identical bytes everywhere.
"""
import ast
import math
import os
import struct
import sys


def read_npy(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:6] != b"\x93NUMPY":
        raise ValueError(f"{path}: not an .npy file")
    major = data[6]
    if major == 1:
        hlen = struct.unpack("<H", data[8:10])[0]
        start = 10
    else:
        hlen = struct.unpack("<I", data[8:12])[0]
        start = 12
    header = ast.literal_eval(data[start:start + hlen].decode("latin1"))
    return header, data[start + hlen:]


def values(header, payload):
    d = header["descr"]
    fmt = {"<f4": "f", "<f2": "e", "<i4": "i", "|u1": "B", "|i1": "b", "<i2": "h", "<u2": "H", "|b1": "?"}.get(d)
    if fmt is None:
        raise ValueError(f"unsupported dtype {d}")
    n = len(payload) // struct.calcsize(fmt)
    return d, struct.unpack("<%d%s" % (n, fmt), payload[: n * struct.calcsize(fmt)])


def main():
    args = sys.argv[1:]
    exact = "--exact" in args
    rtol = 1e-4
    if "--rtol" in args:
        rtol = float(args[args.index("--rtol") + 1])
    dirs = [a for a in args if not a.startswith("--") and a != str(rtol)]
    a, b = dirs[0], dirs[1]
    names = sorted(n for n in os.listdir(a) if n.endswith(".npy"))
    if not names:
        print(f"compare_npy: no .npy files in {a}")
        return 1
    bad = 0
    for name in names:
        pb = os.path.join(b, name)
        if not os.path.exists(pb):
            print(f"{name}: missing in {b}")
            bad += 1
            continue
        ha, da = read_npy(os.path.join(a, name))
        hb, db = read_npy(pb)
        if ha["shape"] != hb["shape"] or ha["descr"] != hb["descr"]:
            print(f"{name}: {ha} vs {hb}")
            bad += 1
            continue
        if exact or ha["descr"] not in ("<f4", "<f2"):
            same = da == db
            print(f"{name}: {'identical' if same else 'DIFFERENT'} ({len(da)} bytes)")
            bad += 0 if same else 1
            continue
        _, va = values(ha, da)
        _, vb = values(hb, db)
        if any(math.isnan(x) for x in va + vb):
            print(f"{name}: NaN in output")
            bad += 1
            continue
        num = math.sqrt(sum((x - y) ** 2 for x, y in zip(va, vb)))
        den = math.sqrt(sum(x * x for x in va)) or 1.0
        rel = num / den
        ok = rel <= rtol
        print(f"{name}: relative L2 error {rel:.3g} ({'ok' if ok else 'TOO LARGE'}, limit {rtol:g})")
        bad += 0 if ok else 1
    print(f"{len(names) - bad} passed, {bad} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
