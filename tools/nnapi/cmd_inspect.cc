// `nnapi inspect MODEL`: the TFLite -> NNAPI operator mapping, the NNAPI graph's size, which
// device supports which operation and the runtime's partitioning plan.
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksDiagnostics.h>

#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "commands.h"
#include "session.h"

using namespace nnapi_tflite;

namespace nnapi_cli {
namespace {

// The runtime's partitioning plan (ANNLinux_Compilation_getStep*/getOperationDevice): the
// device of every operation, a line where the device changes, for a compilation over all
// devices (Compilation_create) or over `devs` (createForDevices).
void PrintPlan(const ImportedModel& im, const std::vector<NnOperation>& ops,
               const std::vector<DeviceInfo>& devs) {
  ANeuralNetworksCompilation* c = nullptr;
  std::vector<const ANeuralNetworksDevice*> list;
  for (const DeviceInfo& d : devs) list.push_back(d.device);
  int r = list.empty() ? ANeuralNetworksCompilation_create(im.model(), &c)
                       : ANeuralNetworksCompilation_createForDevices(im.model(), list.data(),
                                                                     static_cast<uint32_t>(list.size()), &c);
  if (r == ANEURALNETWORKS_NO_ERROR) {
    ANeuralNetworksCompilation_setPreference(c, ANEURALNETWORKS_PREFER_FAST_SINGLE_ANSWER);
    r = ANeuralNetworksCompilation_finish(c);
  }
  std::printf("\nplan (%s):\n", list.empty() ? "Compilation_create, all devices" : "createForDevices");
  uint32_t steps = 0;
  if (r != ANEURALNETWORKS_NO_ERROR || ANNLinux_Compilation_getStepCount(c, &steps) != ANEURALNETWORKS_NO_ERROR) {
    std::printf("  compilation failed: %s: %s\n", ANNLinux_resultCodeName(r), ANNLinux_getLastErrorMessage());
    if (c) ANeuralNetworksCompilation_free(c);
    return;
  }
  auto name = [](const ANeuralNetworksDevice* d) {
    const char* n = nullptr;
    return d && ANeuralNetworksDevice_getName(d, &n) == ANEURALNETWORKS_NO_ERROR && n ? std::string(n) : std::string("?");
  };
  std::printf("  %u step(s):", steps);
  for (uint32_t k = 0; k < steps; ++k) {
    const ANeuralNetworksDevice* d = nullptr;
    ANNLinux_Compilation_getStepDevice(c, k, &d);
    std::printf("%s %s", k ? "," : "", name(d).c_str());
  }
  std::printf("\n");
  const ANeuralNetworksDevice* prev = nullptr;
  for (size_t i = 0; i < ops.size(); ++i) {
    const ANeuralNetworksDevice* d = nullptr;
    ANNLinux_Compilation_getOperationDevice(c, static_cast<uint32_t>(i), &d);
    if (i > 0 && d != prev) std::printf("  ---- %s -> %s\n", name(prev).c_str(), name(d).c_str());
    std::printf("  #%-4zu %-28s %s\n", i, NnOperationName(ops[i].type), name(d).c_str());
    prev = d;
  }
  ANeuralNetworksCompilation_free(c);
}

}  // namespace

int CmdInspect(const Args& a) {
  ModelFile file;
  std::string err;
  if (!file.Open(a.model, &err)) {
    std::fprintf(stderr, "nnapi: %s\n", err.c_str());
    return 1;
  }
  const Model& m = file.model();
  const SubGraph& sg = m.subgraphs[0];
  std::printf("model: %s (%zu bytes, schema version %u%s%s)\n", a.model.c_str(), file.file_size(), m.version,
              m.description.empty() ? "" : ", ", m.description.c_str());
  std::printf("subgraphs: %zu; main subgraph: %zu tensors, %zu operators, %zu buffers\n", m.subgraphs.size(),
              sg.tensors.size(), sg.operators.size(), m.buffers.size());
  for (size_t k = 0; k < sg.inputs.size(); ++k) {
    const Tensor& t = sg.tensors[static_cast<size_t>(sg.inputs[k])];
    std::printf("  input  %zu: %-28s %s %s\n", k, t.name.c_str(), TensorTypeName(t.type), Dims(t.shape).c_str());
  }
  for (size_t k = 0; k < sg.outputs.size(); ++k) {
    const Tensor& t = sg.tensors[static_cast<size_t>(sg.outputs[k])];
    std::printf("  output %zu: %-28s %s %s\n", k, t.name.c_str(), TensorTypeName(t.type), Dims(t.shape).c_str());
  }

  ImportOptions opts;
  opts.allow_partial = true;
  NnGraph graph;
  ImportReport rep;
  bool complete = PlanImport(m, opts, &graph, &rep);

  // Per TFLite operator type: count and what it became.
  struct Row {
    int count = 0, unsupported = 0, folded = 0;
    std::map<std::string, int> nn;
    std::string reason;
  };
  std::map<std::string, Row> rows;
  for (const OpReport& o : rep.ops) {
    Row& r = rows[o.tflite_name];
    r.count++;
    if (o.status == OpReport::Status::kFolded) r.folded++;
    if (o.status == OpReport::Status::kUnsupported) {
      r.unsupported++;
      if (r.reason.empty()) r.reason = o.detail;
    }
    std::string seq;
    for (const std::string& n : o.nnapi_ops) seq += (seq.empty() ? "" : " + ") + n;
    if (!seq.empty()) r.nn[seq]++;
  }
  std::printf("\noperator mapping (TFLite -> NNAPI):\n");
  for (const auto& [name, r] : rows) {
    std::string to;
    for (const auto& [seq, n] : r.nn) to += (to.empty() ? "" : ", ") + seq + (n != r.count ? " x" + std::to_string(n) : "");
    if (r.folded) to += (to.empty() ? "" : ", ") + std::string("folded into constants") + (r.folded != r.count ? " x" + std::to_string(r.folded) : "");
    if (r.unsupported) to += (to.empty() ? "" : ", ") + std::string("UNSUPPORTED x") + std::to_string(r.unsupported) + ": " + r.reason;
    std::printf("  %-34s x%-4d -> %s\n", name.c_str(), r.count, to.c_str());
  }
  if (a.verbose) {
    std::printf("\nper operator:\n");
    for (const OpReport& o : rep.ops) {
      std::string seq;
      for (const std::string& n : o.nnapi_ops) seq += (seq.empty() ? "" : " + ") + n;
      const char* st = o.status == OpReport::Status::kMapped ? "" : o.status == OpReport::Status::kFolded ? "folded" : "UNSUPPORTED";
      std::printf("  #%-4d %-30s -> %s%s%s%s\n", o.index, o.tflite_name.c_str(), seq.c_str(), st,
                  o.detail.empty() ? "" : ": ", o.detail.c_str());
    }
  }
  std::printf("\nNNAPI graph: %zu operations, %zu operands, %zu inputs, %zu outputs; constants: %.2f MB referenced "
              "from the file, %.2f MB converted/owned\n",
              graph.operations.size(), graph.operands.size(), graph.inputs.size(), graph.outputs.size(),
              graph.file_const_bytes / 1048576.0, graph.owned_const_bytes / 1048576.0);
  if (!complete) {
    std::printf("import: INCOMPLETE — %d unsupported operator(s); first: %s\n", rep.unsupported,
                rep.first_error.c_str());
    if (rep.boundary_inputs || rep.boundary_outputs) {
      std::printf("        the mapped part gets %d extra input(s) and %d extra output(s) at the boundaries\n",
                  rep.boundary_inputs, rep.boundary_outputs);
    }
  } else {
    std::printf("import: complete (%zu TFLite operators: %zu mapped, %d folded)\n", rep.ops.size(),
                rep.ops.size() - static_cast<size_t>(rep.folded), rep.folded);
  }
  if (graph.operations.empty()) return complete ? 0 : 1;

  // Device support, through the runtime.
  std::vector<DeviceInfo> devs = ListDevices(&err);
  if (!err.empty()) {
    std::fprintf(stderr, "nnapi: %s\n", err.c_str());
    return 1;
  }
  if (!a.devices.empty()) {
    std::vector<DeviceInfo> chosen;
    for (const std::string& n : a.devices) {
      DeviceInfo d;
      if (!FindDevice(n, &d, &err)) {
        std::fprintf(stderr, "nnapi: %s\n", err.c_str());
        return 1;
      }
      chosen.push_back(d);
    }
    devs = chosen;
  }
  const size_t nops = graph.operations.size();
  std::vector<NnOperation> ops_copy = graph.operations;
  ImportedModel im;
  if (!BuildNnapiModel(std::move(graph), file.fd(), file.file_size(), &im, &err)) {
    std::printf("\ndevice support: unavailable — the runtime rejected the model: %s\n", err.c_str());
    return 1;
  }
  std::printf("\ndevice support (ANeuralNetworksModel_getSupportedOperationsForDevices):\n");
  std::vector<bool> any(nops, false);
  for (const DeviceInfo& d : devs) {
    std::unique_ptr<bool[]> sup(new bool[nops]());
    const ANeuralNetworksDevice* dp = d.device;
    int r = ANeuralNetworksModel_getSupportedOperationsForDevices(im.model(), &dp, 1, sup.get());
    if (r != ANEURALNETWORKS_NO_ERROR) {
      std::printf("  %s: query failed: %s\n", d.name.c_str(), ANNLinux_resultCodeName(r));
      continue;
    }
    size_t n = 0, partitions = 0;
    std::map<std::string, int> missing;
    for (size_t i = 0; i < nops; ++i) {
      if (sup[i]) {
        ++n;
        any[i] = true;
        if (i == 0 || !sup[i - 1]) ++partitions;
      } else {
        missing[NnOperationName(ops_copy[i].type)]++;
      }
    }
    // Runs of supported operations in execution order go to the device; each gap needs another
    // device, so the plan alternates between them.
    size_t gaps = 0;
    for (size_t i = 0; i < nops; ++i) {
      if (!sup[i] && (i == 0 || sup[i - 1])) ++gaps;
    }
    std::printf("  %-24s %zu/%zu operations supported; estimated partitions: %zu on this device + %zu elsewhere\n",
                d.name.c_str(), n, nops, partitions, gaps);
    if (!missing.empty()) {
      std::string s;
      for (const auto& [name, c] : missing) s += (s.empty() ? "" : ", ") + name + " x" + std::to_string(c);
      std::printf("  %-24s unsupported: %s\n", "", s.c_str());
    }
  }
  size_t none = 0;
  for (bool b : any) none += !b;
  if (none) std::printf("  %zu operation(s) are supported by none of the listed devices\n", none);
  PrintPlan(im, ops_copy, a.devices.empty() ? std::vector<DeviceInfo>() : devs);
  return complete ? 0 : 1;
}

}  // namespace nnapi_cli
