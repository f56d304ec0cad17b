#!/usr/bin/env python3
"""The quant8 1x1 CONV_2D / FULLY_CONNECTED shapes of nnapi_bench_kernels with AMX-INT8 (the
default level) against AVX-512 VNNI (NNAPI_CPU_ISA=avx512vnni), interleaved A B A B ... so both
see the same machine load; prints the best (minimum) time of each and the ratio.

  bench/amx_vs_vnni.py [--bench build/bin/nnapi_bench_kernels] [--rounds 5] [--filter REGEX]

One driver thread (NNAPI_CPU_THREADS=1). Where the processor or Linux offers no AMX-INT8
(no amx_int8 in /proc/cpuinfo) both columns run the VNNI path, and the script says so.
"""
import argparse
import json
import os
import subprocess
import sys


def run(bench, isa, flt, min_time):
    env = dict(os.environ, NNAPI_CPU_THREADS="1")
    env.pop("NNAPI_CPU_ISA", None)
    if isa:
        env["NNAPI_CPU_ISA"] = isa
    out = subprocess.run(
        [bench, "--benchmark_filter=" + flt, "--benchmark_format=json",
         "--benchmark_min_time=%g" % min_time],
        env=env, check=True, capture_output=True, text=True).stdout
    res = {}
    for b in json.loads(out)["benchmarks"]:
        name = b["name"].replace("/real_time", "")
        # Real time and the main thread's CPU time: with one driver thread the computation runs
        # on the calling thread, and under load the CPU time shows it without the waits.
        res[name] = (b["real_time"], b["cpu_time"])
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bench", default="build/bin/nnapi_bench_kernels")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--min-time", type=float, default=0.1)
    ap.add_argument("--filter", default="Q8S?/(Pointwise|V2Pointwise|FullyConnected)")
    a = ap.parse_args()
    with open("/proc/cpuinfo") as f:
        amx = " amx_int8" in f.read()
    if not amx:
        print("note: this processor/kernel offers no AMX-INT8: both columns are the VNNI path")
    best = {}
    for _ in range(a.rounds):
        for isa in ("avx512vnni", ""):
            for name, (real, cpu) in run(a.bench, isa, a.filter, a.min_time).items():
                key = (name, isa or "default")
                r0, c0 = best.get(key, (float("inf"), float("inf")))
                best[key] = (min(r0, real), min(c0, cpu))
    names = sorted({n for n, _ in best}, key=lambda n: list(k[0] for k in best).index(n))
    print("%-42s %12s %12s %10s %10s %7s" % ("case (min of %d rounds, us)" % a.rounds,
                                             "VNNI", "default", "VNNI GOP/s", "dflt GOP/s",
                                             "ratio"))
    ops = {}
    for n in names:
        layer = n.split("/", 1)[1]
        ops[n] = flops_of(layer)
    for n in names:
        v = best[(n, "avx512vnni")][1]
        d = best[(n, "default")][1]
        print("%-42s %12.1f %12.1f %10.1f %10.1f %6.2fx" % (n, v, d, ops[n] / v / 1e3,
                                                            ops[n] / d / 1e3, v / d))
    print("(times: the calling thread's CPU time, minimum over rounds; ratio = VNNI / default)")
    return 0


def flops_of(layer):
    """2 * MACs of a kernels_bench layer name like Pointwise_14x512to512 or
    FullyConnected_b64_1280to1001 (batch 1 when no b)."""
    parts = layer.split("_")
    if parts[0].endswith("Pointwise"):
        hw, rest = parts[1].split("x")
        cin, cout = rest.split("to")
        return 2.0 * int(hw) ** 2 * int(cin) * int(cout)
    batch = 1
    if parts[1].startswith("b"):
        batch = int(parts[1][1:])
        parts = parts[:1] + parts[2:]
    cin, cout = parts[1].split("to")
    return 2.0 * batch * int(cin) * int(cout)


if __name__ == "__main__":
    sys.exit(main())
