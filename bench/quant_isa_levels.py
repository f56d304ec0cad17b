#!/usr/bin/env python3
"""The quantized MobileNets of nnapi_bench_e2e (v1/v2, uint8 and int8 per-channel) at each
NNAPI_CPU_ISA level, interleaved (each round runs every level once, so all see the same machine
load); prints the minimum latency of each and its GOP/s.

  bench/quant_isa_levels.py [--bench build/bin/nnapi_bench_e2e] [--rounds 3] [--threads 1]
                            [--levels default,avx512vnni,avx512novnni,avx2,baseline]

`default` is the best level the processor offers (AMX-INT8 for the 1x1 / FULLY_CONNECTED GEMMs
where Linux grants it; avx512vnni is the same minus AMX).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

VARIANTS = [("v1_u8", "v1 uint8"), ("v1_s8", "v1 int8 pc"), ("v2_u8", "v2 uint8"),
            ("v2_s8", "v2 int8 pc")]


def find(o):
    """The flat result object holding the quant keys inside the --json file."""
    if isinstance(o, dict):
        if "qmobilenet_v1_u8_min_ms" in o:
            return o
        o = list(o.values())
    if isinstance(o, list):
        for v in o:
            r = find(v)
            if r:
                return r
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bench", default="build/bin/nnapi_bench_e2e")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", default="1")
    ap.add_argument("--runs", default="20")
    ap.add_argument("--levels", default="default,avx512vnni,avx512novnni,avx2,baseline")
    a = ap.parse_args()
    levels = a.levels.split(",")
    best, gmacs = {}, {}
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "e2e.json")
        for _ in range(a.rounds):
            for lv in levels:
                env = dict(os.environ, NNAPI_CPU_THREADS=a.threads)
                env.pop("NNAPI_CPU_ISA", None)
                if lv != "default":
                    env["NNAPI_CPU_ISA"] = lv
                subprocess.run([a.bench, "--no-mobilenet", "--no-fixed", "--runs", a.runs,
                                "--max-seconds", "3", "--json", path],
                               env=env, check=True, capture_output=True)
                with open(path) as f:
                    r = find(json.load(f))
                for v, _ in VARIANTS:
                    key = (lv, v)
                    best[key] = min(best.get(key, float("inf")), r["qmobilenet_%s_min_ms" % v])
                    gmacs[v] = r["qmobilenet_%s_gmacs" % v]
    print("NNAPI_CPU_THREADS=%s, min of %d interleaved rounds; GOP/s = 2 * MACs / time" %
          (a.threads, a.rounds))
    print("%-14s" % "level" + "".join("%22s" % label for _, label in VARIANTS))
    for lv in levels:
        row = "%-14s" % lv
        for v, _ in VARIANTS:
            ms = best[(lv, v)]
            row += "%9.2f ms %6.0f GOP/s" % (ms, 2 * gmacs[v] * 1e3 / ms)
        print(row)
    print("GMAC per inference: " + ", ".join("%s %.3f" % (v, gmacs[v]) for v, _ in VARIANTS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
