#!/usr/bin/env bash
# A/B latency of two builds of this project, interleaved (A B A B ...) so both see the same
# machine: `nnapi bench` of build A and build B on each model and thread count, `rounds` times;
# prints per model/threads the best (minimum over rounds) of each run's minimum and median, and
# the ratio B/A of the medians. Use it to show that a change does not slow the models down.
#
# usage: bench/ab_latency.sh A_NNAPI_BIN B_NNAPI_BIN [--threads 1,2] [--rounds 5] [--runs 50] MODEL...
set -euo pipefail
a=${1:?usage}; b=${2:?usage}; shift 2
threads=1,2; rounds=5; runs=50; models=()
while [ $# -gt 0 ]; do
  case $1 in
    --threads) threads=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    *) models+=("$1"); shift ;;
  esac
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
run() {  # bin model threads -> "min median"
  "$1" bench "$2" --threads "$3" --runs "$runs" --warmup 5 2>&1 | grep '^Latency' |
    sed -E 's/.*min=([0-9.]+) median=([0-9.]+).*/\1 \2/'
}
IFS=, read -r -a tlist <<<"$threads"
for r in $(seq 1 "$rounds"); do
  echo "round $r/$rounds, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
  for m in "${models[@]}"; do
    for t in "${tlist[@]}"; do
      key="$(basename "$m" .tflite)|$t"
      echo "$key|A|$(NNAPI_CPU_THREADS=$t run "$a" "$m" "$t")" >>"$tmp/raw"
      echo "$key|B|$(NNAPI_CPU_THREADS=$t run "$b" "$m" "$t")" >>"$tmp/raw"
    done
  done
done
printf '| model | threads | A min | A median | B min | B median | B/A (median) |\n|---|---:|---:|---:|---:|---:|---:|\n'
awk -F'|' '{split($3,v," "); k=$1"|"$2"|"$3; } {
  split($0,f,"|"); split(f[4],v," "); key=f[1]"|"f[2]; side=f[3];
  if (!(key in seen)) { seen[key]=1; order[++n]=key }
  if (!((key,side,"min") in best) || v[1] < best[key,side,"min"]) best[key,side,"min"]=v[1];
  if (!((key,side,"med") in best) || v[2] < best[key,side,"med"]) best[key,side,"med"]=v[2];
} END {
  for (i=1;i<=n;i++) { k=order[i]; split(k,p,"|");
    printf "| %s | %s | %.3f | %.3f | %.3f | %.3f | %.2f |\n", p[1], p[2], best[k,"A","min"], best[k,"A","med"],
      best[k,"B","min"], best[k,"B","med"], best[k,"B","med"]/best[k,"A","med"] }
}' "$tmp/raw"
