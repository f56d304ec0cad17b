// `nnapi run MODEL`: one inference; prints each output's shape, range and first values and, with
// --output-dir, writes the inputs and outputs as .npy files.
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksDiagnostics.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "commands.h"
#include "demo_common.h"
#include "npy.h"
#include "session.h"

using namespace nnapi_tflite;

namespace nnapi_cli {
namespace {

std::string ValuesPreview(const NnOperand& o, const std::vector<uint8_t>& buf, double* mn, double* mx, double* mean) {
  const uint64_t n = buf.size() / ElementSize(o.type);
  auto at = [&](uint64_t i) -> double {
    switch (o.type) {
      case ANEURALNETWORKS_TENSOR_FLOAT32: { float v; std::memcpy(&v, buf.data() + 4 * i, 4); return v; }
      case ANEURALNETWORKS_TENSOR_INT32: { int32_t v; std::memcpy(&v, buf.data() + 4 * i, 4); return v; }
      case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM: return (buf[i] - o.zero_point) * static_cast<double>(o.scale);
      case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED: return (static_cast<int8_t>(buf[i]) - o.zero_point) * static_cast<double>(o.scale);
      case ANEURALNETWORKS_TENSOR_BOOL8: return buf[i] ? 1 : 0;
      default: return buf[i];
    }
  };
  *mn = INFINITY;
  *mx = -INFINITY;
  double sum = 0;
  for (uint64_t i = 0; i < n; ++i) {
    double v = at(i);
    *mn = std::min(*mn, v);
    *mx = std::max(*mx, v);
    sum += v;
  }
  *mean = n ? sum / static_cast<double>(n) : 0;
  std::string s;
  for (uint64_t i = 0; i < std::min<uint64_t>(n, 6); ++i) {
    char b[32];
    std::snprintf(b, sizeof(b), "%s%.6g", i ? ", " : "", at(i));
    s += b;
  }
  if (n > 6) s += ", ...";
  return s;
}

}  // namespace

int CmdRun(const Args& a) {
  Loaded l;
  Compiled c;
  IoBuffers io;
  Execution ex;
  double compile_ms = 0, run_ms = 0;
  if (!RunOnce(a, &l, &c, &io, &ex, &compile_ms, &run_ms)) return 1;
  const NnGraph& g = l.imported.graph();
  const SubGraph& sg = l.file.model().subgraphs[0];
  std::printf("model: %s\ndevice: %s\nimport %.1f ms, compile %.1f ms, inference %.2f ms\n", a.model.c_str(),
              a.devices.empty() ? "(runtime's choice)" : a.devices[0].c_str(), l.import_ms, compile_ms, run_ms);
  std::printf("inputs: %s\n", !a.image.empty() ? ("image " + a.image).c_str()
                               : a.inputs.empty() ? ("deterministic random (seed " + std::to_string(a.seed) + ")").c_str()
                                                  : "from .npy files");
  if (!a.output_dir.empty()) {
    if (!MakeDirectories(a.output_dir)) {
      fprintf(stderr, "nnapi: cannot create output directory %s: %s\n", a.output_dir.c_str(),
              strerror(errno));
      return 1;
    }
    // The inputs are saved too, so a run with random inputs can be replayed elsewhere.
    for (size_t k = 0; k < g.inputs.size(); ++k) {
      const NnOperand& o = g.operands[g.inputs[k]];
      std::string path = a.output_dir + "/input_" + std::to_string(k) + ".npy", err;
      std::vector<uint64_t> shape(o.dims.begin(), o.dims.end());
      if (!WriteNpyFile(path, NpyDtype(o.type), shape, io.inputs[k].data(), io.inputs[k].size(), &err)) {
        std::fprintf(stderr, "nnapi: %s\n", err.c_str());
        return 1;
      }
    }
  }
  for (size_t k = 0; k < g.outputs.size(); ++k) {
    const NnOperand& o = g.operands[g.outputs[k]];
    std::vector<uint32_t> dims = o.dims;
    uint32_t rank = 0;
    if (ANeuralNetworksExecution_getOutputOperandRank(ex.e, static_cast<int32_t>(k), &rank) == ANEURALNETWORKS_NO_ERROR &&
        rank == dims.size() && rank > 0) {
      ANeuralNetworksExecution_getOutputOperandDimensions(ex.e, static_cast<int32_t>(k), dims.data());
    }
    double mn, mx, mean;
    std::string preview = ValuesPreview(o, io.outputs[k], &mn, &mx, &mean);
    std::string name = k < sg.outputs.size() ? sg.tensors[static_cast<size_t>(sg.outputs[k])].name : "";
    std::printf("output %zu %s: %s %s  min %.6g max %.6g mean %.6g\n  [%s]\n", k, name.c_str(),
                NnOperandTypeName(o.type), Dims(dims).c_str(), mn, mx, mean, preview.c_str());
    if (!a.output_dir.empty()) {
      std::string path = a.output_dir + "/output_" + std::to_string(k) + ".npy";
      std::vector<uint64_t> shape(dims.begin(), dims.end());
      std::string err;
      if (!WriteNpyFile(path, NpyDtype(o.type), shape, io.outputs[k].data(), io.outputs[k].size(), &err)) {
        std::fprintf(stderr, "nnapi: %s\n", err.c_str());
        return 1;
      }
      std::printf("  -> %s\n", path.c_str());
    }
  }
  return 0;
}

}  // namespace nnapi_cli
