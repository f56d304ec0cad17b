#!/bin/sh
# usage: tflite_sl_client.sh BENCHMARK_MODEL LIBNEURALNETWORKS MODEL
# TFLite's benchmark_model loads libneuralnetworks.so as an NNAPI Support Library (only
# ANeuralNetworks_getSLDriverImpl) and must run the whole model through it on nnapi-cpu.
# Missing inputs fail the test: nothing would have been checked.
set -u
bench=$1 lib=$2 model=$3
[ -x "$bench" ] || { echo "tflite_sl_client: $bench not found (../shared/anchors)"; exit 1; }
[ -f "$model" ] || { echo "tflite_sl_client: $model not found (scripts/fetch_models.sh)"; exit 1; }
out=$(LD_LIBRARY_PATH=$(dirname "$lib") "$bench" --graph="$model" --use_xnnpack=false \
      --use_nnapi=true --nnapi_support_library_path="$lib" --nnapi_accelerator_name=nnapi-cpu \
      --num_runs=5 --warmup_runs=1 2>&1)
rc=$?
echo "$out" | grep -iE 'support library|NNAPI SL|delegate|Inference timings'
if [ $rc -ne 0 ]; then echo "tflite_sl_client: benchmark_model exit code $rc"; exit 1; fi
if echo "$out" | grep -q "Couldn't load NNAPI support library"; then
    echo "tflite_sl_client: TFLite refused the support library"; exit 1
fi
if ! echo "$out" | grep -q "completely executed by the delegate"; then
    echo "tflite_sl_client: the graph was not delegated whole"; exit 1
fi
echo "tflite_sl_client: OK"
