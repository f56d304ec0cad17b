#!/usr/bin/env python3
"""nnapi bench at 1 and 2 threads, idle and with another process keeping one core busy
(all the time, or 50 ms of every 100 ms), for one or more `nnapi` binaries, interleaved.

usage: bench/contention_bench.py --bin A=path/to/nnapi --bin B=... [--runs 200]
       [--loads idle,busy,half] [--rounds 1] models/*.tflite
Prints median / p90 / min (ms) per binary, load, model and thread count, and the
2-thread / 1-thread median ratio."""
import argparse, os, re, subprocess, sys, time


def busy_loop(duty):
    # A child process that spins `duty` of every 100 ms (1.0 = always).
    code = ("import time\n"
            "while True:\n"
            "  t=time.monotonic()\n"
            f"  while time.monotonic()-t<{0.1*duty}: pass\n"
            f"  time.sleep({0.1*(1-duty)})\n")
    return subprocess.Popen([sys.executable, "-c", code])


def bench(binary, model, threads, runs):
    out = subprocess.run([binary, "bench", model, "--runs", str(runs), "--threads", str(threads),
                          "--no-progress"], capture_output=True, text=True, check=True).stdout
    m = re.search(r"min=([\d.]+) median=([\d.]+) p90=([\d.]+) max=([\d.]+)", out)
    return tuple(float(m.group(i)) for i in (2, 3, 1, 4))  # median, p90, min, max


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", action="append", required=True)
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--loads", default="idle,busy,half")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("models", nargs="+")
    a = ap.parse_args()
    bins = [b.split("=", 1) for b in a.bin]
    duty = {"idle": 0.0, "busy": 1.0, "half": 0.5}
    for load in a.loads.split(","):
        print(f"## load={load}  uptime:{os.popen('uptime').read().strip()}", flush=True)
        for model in a.models:
            name = os.path.basename(model).replace(".tflite", "")
            res = {}
            for _ in range(a.rounds):
                for threads in (1, 2):
                    for label, path in bins:
                        p = busy_loop(duty[load]) if duty[load] > 0 else None
                        try:
                            time.sleep(0.2)
                            r = bench(path, model, threads, a.runs)
                        finally:
                            if p: p.kill(); p.wait()
                        key = (label, threads)
                        # keep the round with the lowest median
                        if key not in res or r[0] < res[key][0]: res[key] = r
            for label, _ in bins:
                r1, r2 = res[(label, 1)], res[(label, 2)]
                print(f"{load:5} {name:28} {label:5} t1 med {r1[0]:7.2f} p90 {r1[1]:7.2f} min {r1[2]:7.2f} | "
                      f"t2 med {r2[0]:7.2f} p90 {r2[1]:7.2f} min {r2[2]:7.2f} max {r2[3]:7.1f} | "
                      f"t2/t1 med {r2[0]/r1[0]:.2f}", flush=True)


if __name__ == "__main__":
    main()
