#!/usr/bin/env python3
"""Prints the README's operation status table from a conformance run.

Runs build/bin/nnapi-cts over ../shared/cts with every feature level enabled
(NNAPI_CPU_CLAIM_FEATURE_LEVEL), then, for each operation, counts the vectors that use it
and how many pass, and lists the operand types (of the operation's first input) covered by
passing vectors. A vector counts for every operation in it, so a failure may belong to
another operation of the same model.
"""
import collections, json, os, subprocess, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
cts = os.environ.get("NNAPI_CTS_DIR", os.path.join(root, "..", "shared", "cts"))
runner = os.path.join(root, os.environ.get("BUILD_DIR", "build"), "bin", "nnapi-cts")
names = ["ADD", "AVERAGE_POOL_2D", "CONCATENATION", "CONV_2D", "DEPTHWISE_CONV_2D",
         "DEPTH_TO_SPACE", "DEQUANTIZE", "EMBEDDING_LOOKUP", "FLOOR", "FULLY_CONNECTED",
         "HASHTABLE_LOOKUP", "L2_NORMALIZATION", "L2_POOL_2D", "LOCAL_RESPONSE_NORMALIZATION",
         "LOGISTIC", "LSH_PROJECTION", "LSTM", "MAX_POOL_2D", "MUL", "RELU", "RELU1", "RELU6",
         "RESHAPE", "RESIZE_BILINEAR", "RNN", "SOFTMAX", "SPACE_TO_DEPTH", "SVDF", "TANH",
         "BATCH_TO_SPACE_ND", "DIV", "MEAN", "PAD", "SPACE_TO_BATCH_ND", "SQUEEZE",
         "STRIDED_SLICE", "SUB", "TRANSPOSE", "ABS", "ARGMAX", "ARGMIN",
         "AXIS_ALIGNED_BBOX_TRANSFORM", "BIDIRECTIONAL_SEQUENCE_LSTM", "BIDIRECTIONAL_SEQUENCE_RNN",
         "BOX_WITH_NMS_LIMIT", "CAST", "CHANNEL_SHUFFLE", "DETECTION_POSTPROCESSING", "EQUAL",
         "EXP", "EXPAND_DIMS", "GATHER", "GENERATE_PROPOSALS", "GREATER", "GREATER_EQUAL",
         "GROUPED_CONV_2D", "HEATMAP_MAX_KEYPOINT", "INSTANCE_NORMALIZATION", "LESS", "LESS_EQUAL",
         "LOG", "LOGICAL_AND", "LOGICAL_NOT", "LOGICAL_OR", "LOG_SOFTMAX", "MAXIMUM", "MINIMUM",
         "NEG", "NOT_EQUAL", "PAD_V2", "POW", "PRELU", "QUANTIZE", "QUANTIZED_16BIT_LSTM",
         "RANDOM_MULTINOMIAL", "REDUCE_ALL", "REDUCE_ANY", "REDUCE_MAX", "REDUCE_MIN",
         "REDUCE_PROD", "REDUCE_SUM", "ROI_ALIGN", "ROI_POOLING", "RSQRT", "SELECT", "SIN",
         "SLICE", "SPLIT", "SQRT", "TILE", "TOPK_V2", "TRANSPOSE_CONV_2D",
         "UNIDIRECTIONAL_SEQUENCE_LSTM", "UNIDIRECTIONAL_SEQUENCE_RNN", "RESIZE_NEAREST_NEIGHBOR",
         "QUANTIZED_LSTM", "IF", "WHILE", "ELU", "HARD_SWISH", "FILL", "RANK", "BATCH_MATMUL",
         "PACK", "MIRROR_PAD", "REVERSE"]
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
for code, name in enumerate(names):
    n, p = total[name], passed[name]
    cell = f"{p}/{n}" if n else "no vectors"
    mark = "" if n and p == n else (" (missing)" if n and p == 0 else "")
    print(f"| {code} | {name}{mark} | {cell} | {' '.join(sorted(types[name]))} |")
