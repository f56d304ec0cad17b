#!/usr/bin/env python3
"""Prints the operation status table of docs/status.md from a conformance run.

Runs build/bin/nnapi-cts over ../shared/cts with every feature level enabled
(NNAPI_CPU_CLAIM_FEATURE_LEVEL), then, for each operation, counts the vectors that use it
and how many pass, and lists the operand types (of the operation's first input) covered by
passing vectors. A vector counts for every operation in it, so a failure may belong to
another operation of the same model. The rows are the operations of the runtime's one list,
NN_FOR_EACH_OPERATION in src/hal/operation_list.h.
"""
import collections, json, os, re, subprocess, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
cts = os.environ.get("NNAPI_CTS_DIR", os.path.join(root, "..", "shared", "cts"))
runner = os.path.join(root, os.environ.get("BUILD_DIR", "build"), "bin", "nnapi-cts")


def operation_list(path):
    """(code, name) of every X(NAME, CODE) of the NN_FOR_EACH_OPERATION macro, in list order."""
    text = open(path).read()
    body = []
    for line in text[text.index("#define NN_FOR_EACH_OPERATION(X)"):].splitlines():
        body.append(line)
        if not line.rstrip().endswith("\\"):
            break
    ops = [(int(code), name) for name, code in re.findall(r"\bX\(\s*(\w+)\s*,\s*(\d+)\s*\)", "\n".join(body))]
    if not ops:
        sys.exit(f"status_table.py: no operations found in {path}")
    return ops


# The runtime's one operation list (codes from 10000 up are outside the public enum).
operations = operation_list(os.path.join(root, "src", "hal", "operation_list.h"))
short = {"TENSOR_FLOAT32": "f32", "TENSOR_FLOAT16": "f16", "TENSOR_QUANT8_ASYMM": "u8",
         "TENSOR_QUANT8_ASYMM_SIGNED": "s8", "TENSOR_INT32": "i32", "TENSOR_BOOL8": "bool",
         "TENSOR_QUANT16_ASYMM": "u16", "TENSOR_QUANT16_SYMM": "i16", "TENSOR_QUANT8_SYMM": "q8s",
         "TENSOR_QUANT8_SYMM_PER_CHANNEL": "pc8"}

with tempfile.NamedTemporaryFile(suffix=".json") as rep:
    env = dict(os.environ, NNAPI_CPU_CLAIM_FEATURE_LEVEL="1000007")
    subprocess.run([runner, "-q", "--jobs", "2", "--report", rep.name, cts], env=env,
                   stdout=subprocess.DEVNULL, check=False)
    status = {t["name"]: t["status"] for t in json.load(open(rep.name))["tests"]}

total, passed = collections.Counter(), collections.Counter()
types = collections.defaultdict(set)
for dirpath, _, files in os.walk(cts):
    for f in files:
        if not f.endswith(".json"):
            continue
        for t in json.load(open(os.path.join(dirpath, f)))["tests"]:
            graphs = [t["main"]] + t["referenced"]
            for g in graphs:
                for op in g["operations"]:
                    total[op["type"]] += 1
                    if status.get(t["name"]) == "pass":
                        passed[op["type"]] += 1
                        if op["inputs"]:
                            ty = g["operands"][op["inputs"][0]]["type"]
                            if ty in short:
                                types[op["type"]].add(short[ty])

print("| code | operation | vectors passing | input types covered by passing vectors |")
print("|---:|---|---:|---|")
for code, name in operations:
    n, p = total[name], passed[name]
    cell = f"{p}/{n}" if n else "no vectors"
    mark = "" if n and p == n else (" (missing)" if n and p == 0 else "")
    if code >= 10000:
        mark += " (experimental)"
    print(f"| {code} | {name}{mark} | {cell} | {' '.join(sorted(types[name]))} |")
