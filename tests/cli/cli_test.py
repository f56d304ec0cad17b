#!/usr/bin/env python3
"""The command-line contract of the installed tools (docs/cli.md, issue 11 item 5).

  cli_test.py --version V --source-dir DIR [--cts-dir DIR] NAME=PATH...

NAME=PATH: the tools to check (nnapi, nnapi-cts, nnapi-cts-sl, and the benchmarks
nnapi_bench_e2e, nnapi_bench_kernels when built). Checks:
  * --version prints "<tool> V" (V: CMake's PROJECT_VERSION, passed in), exit 0;
  * --help prints the exit statuses, exit 0; bad usage exits 2;
  * nnapi bench --relaxed, nnapi run --relaxed and the nnapi-relaxed wrapper work.
  * nnapi-cts and nnapi bench draw a progress line on stderr when it is a terminal (a pseudo-
    terminal here, python's pty module), erase it at the end, and print none when stderr is a
    pipe or with --no-progress; stdout is the same either way.
"""
import argparse
import fcntl
import glob
import os
import pty
import re
import struct
import subprocess
import sys
import termios
import threading

failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def run(cmd, timeout=120):
    p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=timeout)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def run_stderr_on_pty(cmd, timeout=300):
    """Runs cmd with stderr on a pseudo-terminal (200 columns) and stdout on a pipe."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 200, 0, 0))
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    chunks = []

    def reader():
        while True:
            try:
                b = os.read(master, 65536)
            except OSError:  # EIO: every holder of the terminal (tool and its workers) is gone
                break
            if not b:
                break
            chunks.append(b)

    t = threading.Thread(target=reader)
    t.start()
    out, _ = p.communicate(timeout=timeout)
    t.join(timeout=30)
    os.close(master)
    return p.returncode, out.decode(errors="replace"), b"".join(chunks).decode(errors="replace")


def ends_erased(tty):
    """The last thing written to the terminal blanks the progress line: '\\r' + spaces + '\\r'."""
    return re.search(r"\r +\r\Z", tty) is not None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--version", required=True)
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--cts-dir")
    ap.add_argument("tools", nargs="+")
    a = ap.parse_args()
    tools = dict(t.split("=", 1) for t in a.tools)
    installed = [n for n in ("nnapi", "nnapi-cts", "nnapi-cts-sl") if n in tools]
    check(len(installed) == 3, "all three installed tools given")

    # --version and --help.
    for name in installed:
        rc, out, err = run([tools[name], "--version"])
        check(rc == 0 and out == "%s %s\n" % (name, a.version),
              "%s --version prints '%s %s' (got rc %d, %r)" % (name, name, a.version, rc, out))
    for name, path in tools.items():
        rc, out, err = run([path, "--help"])
        check(rc == 0 and "exit status" in out, "%s --help: exit 0, documents the exit status" % name)
        if name in installed:
            check("--version" in out, "%s --help mentions --version" % name)

    # Bad usage: exit status 2 (and a message on stderr).
    bad = [("nnapi",), ("nnapi", "--bogus"), ("nnapi", "bench"), ("nnapi", "bench", "m.tflite", "--runs", "x"),
           ("nnapi", "frobnicate", "m.tflite"), ("nnapi", "inspect", "m.tflite", "--relaxed"),
           ("nnapi-cts",), ("nnapi-cts", "--bogus", "."), ("nnapi-cts", "--jobs", "0", "."),
           ("nnapi-cts", "/nonexistent/nnapi-cts-path"),
           ("nnapi-cts-sl", "--bogus", "."), ("nnapi-cts-sl", "."),
           ("nnapi_bench_e2e", "--bogus"), ("nnapi_bench_kernels", "--bogus")]
    for cmd in bad:
        if cmd[0] not in tools:
            continue
        rc, out, err = run([tools[cmd[0]]] + list(cmd[1:]))
        check(rc == 2 and err.strip() != "", "bad usage exits 2 with a message: %s (got %d)" % (" ".join(cmd), rc))

    # nnapi-cts progress: a few vector files, so it is quick.
    cts_dir = a.cts_dir or os.environ.get("NNAPI_CTS_DIR") or os.path.join(a.source_dir, "..", "shared", "cts")
    files = sorted(glob.glob(os.path.join(cts_dir, "V1_0", "*.json")))[:8]
    check(len(files) == 8, "conformance vectors found in %s (set NNAPI_CTS_DIR)" % cts_dir)
    if len(files) == 8:
        base = [tools["nnapi-cts"], "--device", "nnapi-cpu", "--quiet-runtime", "-j2"] + files
        rc_t, out_t, tty = run_stderr_on_pty(base)
        line = re.compile(r"\rnnapi-cts: files \d+/8, tests \d+: \d+ passed, \d+ failed, \d+ skipped, \d+:\d\d")
        check(rc_t == 0 and line.search(tty) is not None,
              "nnapi-cts on a terminal draws 'files N/8, tests ...' on stderr: %r" % tty[:200])
        check(ends_erased(tty), "nnapi-cts erases its progress line at the end: %r" % tty[-120:])
        rc_p, out_p, err_p = run(base)
        check(rc_p == 0 and "files " not in err_p and "\r" not in err_p,
              "nnapi-cts with stderr on a pipe prints no progress: %r" % err_p[:200])
        check(out_t == out_p or re.sub(r"time: .*\n", "", out_t) == re.sub(r"time: .*\n", "", out_p),
              "nnapi-cts stdout is the same with and without a terminal")
        check(re.search(r"^\d+ passed, 0 failed, 0 skipped$", out_p, re.M) is not None,
              "the 8 files pass on nnapi-cpu")
        rc_n, out_n, tty_n = run_stderr_on_pty(base + ["--no-progress"])
        check(rc_n == 0 and tty_n == "", "nnapi-cts --no-progress on a terminal: nothing on stderr (%r)" % tty_n[:200])

    # nnapi bench progress.
    model = os.path.join(a.source_dir, "models", "face_detection_short_range.tflite")
    check(os.path.exists(model), "model %s present" % model)
    if os.path.exists(model):
        base = [tools["nnapi"], "bench", model, "--runs", "6", "--warmup", "2"]
        rc_t, out_t, tty = run_stderr_on_pty(base)
        check(rc_t == 0 and re.search(r"\rwarmup \[#+ *\] 2/2 \d+:\d\d", tty) is not None and
              re.search(r"\rbenchmark \[#+ *\] 6/6 \d+:\d\d", tty) is not None,
              "nnapi bench on a terminal draws warmup and run progress: %r" % tty[:200])
        check(ends_erased(tty), "nnapi bench erases its progress line at the end: %r" % tty[-120:])
        rc_p, out_p, err_p = run(base)
        check(rc_p == 0 and "\r" not in err_p and "benchmark [" not in err_p,
              "nnapi bench with stderr on a pipe prints no progress: %r" % err_p[:200])
        check("Latency (ms)" in out_t and "\r" not in out_t, "nnapi bench stdout has the summary, no progress")
        rc_n, out_n, tty_n = run_stderr_on_pty(base + ["--no-progress"])
        check(rc_n == 0 and "benchmark [" not in tty_n and "\r" not in tty_n,
              "nnapi bench --no-progress on a terminal: no progress (%r)" % tty_n[:200])
        # --relaxed (the model marked relaxComputationFloat32toFloat16), directly and
        # through the build/bin/nnapi-relaxed wrapper that compare.sh-style scripts take.
        rc_r, out_r, err_r = run(base + ["--relaxed", "--no-progress"])
        check(rc_r == 0 and "Relaxed: [" in out_r and "Latency (ms)" in out_r,
              "nnapi bench --relaxed runs and says so (rc %d, %r)" % (rc_r, err_r[:200]))
        rc_r, out_r, err_r = run([tools["nnapi"], "run", model, "--relaxed"])
        check(rc_r == 0 and "output" in out_r, "nnapi run --relaxed (rc %d, %r)" % (rc_r, err_r[:200]))
        wrapper = os.path.join(os.path.dirname(tools["nnapi"]), "nnapi-relaxed")
        check(os.access(wrapper, os.X_OK), "%s is there and executable" % wrapper)
        if os.access(wrapper, os.X_OK):
            rc_w, out_w, err_w = run([wrapper, "bench", model, "--runs", "2", "--warmup", "0"])
            check(rc_w == 0 and "Relaxed: [" in out_w,
                  "nnapi-relaxed bench is nnapi bench --relaxed (rc %d, %r)" % (rc_w, err_w[:200]))

    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
