// NnGraph -> ANeuralNetworksModel through the public NNAPI C API.

#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksDiagnostics.h>
#include <sys/mman.h>

#include <string>

#include "tflite_importer.h"

namespace nnapi_tflite {

ImportedModel::~ImportedModel() {
  // The model references the memory, so it goes first.
  if (model_) ANeuralNetworksModel_free(model_);
  if (memory_) ANeuralNetworksMemory_free(memory_);
}

bool BuildNnapiModel(NnGraph&& graph, int fd, size_t file_size, ImportedModel* out,
                     std::string* error, bool relaxed) {
  out->graph_ = std::move(graph);
  const NnGraph& g = out->graph_;
  auto check = [&](int r, const std::string& what) {
    if (r == ANEURALNETWORKS_NO_ERROR) return true;
    *error = what + " failed: " + ANNLinux_resultCodeName(r) + " (" + std::to_string(r) + ")";
    return false;
  };

  bool uses_file = false;
  for (const NnOperand& o : g.operands) {
    if (o.lifetime == NnOperand::Lifetime::kConstFile && o.length > 0) uses_file = true;
  }
  if (uses_file) {
    if (!check(ANeuralNetworksMemory_createFromFd(file_size, PROT_READ, fd, 0, &out->memory_),
               "ANeuralNetworksMemory_createFromFd(model file)"))
      return false;
  }
  if (!check(ANeuralNetworksModel_create(&out->model_), "ANeuralNetworksModel_create")) return false;
  ANeuralNetworksModel* model = out->model_;

  for (size_t i = 0; i < g.operands.size(); ++i) {
    const NnOperand& o = g.operands[i];
    ANeuralNetworksOperandType t{};
    t.type = o.type;
    t.dimensionCount = static_cast<uint32_t>(o.dims.size());
    t.dimensions = o.dims.empty() ? nullptr : o.dims.data();
    t.scale = o.scale;
    t.zeroPoint = o.zero_point;
    const std::string what = "operand " + std::to_string(i) + " (" + NnOperandTypeName(o.type) +
                             (o.tflite_tensor >= 0 ? ", tflite tensor " + std::to_string(o.tflite_tensor) : "") + ")";
    if (!check(ANeuralNetworksModel_addOperand(model, &t), "addOperand " + what)) return false;
    if (o.type == ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL) {
      ANeuralNetworksSymmPerChannelQuantParams pc{};
      pc.channelDim = o.channel_dim;
      pc.scaleCount = static_cast<uint32_t>(o.channel_scales.size());
      pc.scales = o.channel_scales.data();
      if (!check(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(model, static_cast<int32_t>(i), &pc),
                 "setOperandSymmPerChannelQuantParams " + what))
        return false;
    }
    switch (o.lifetime) {
      case NnOperand::Lifetime::kConstFile:
        if (o.length == 0) break;
        if (!check(ANeuralNetworksModel_setOperandValueFromMemory(model, static_cast<int32_t>(i), out->memory_,
                                                                  static_cast<size_t>(o.file_offset),
                                                                  static_cast<size_t>(o.length)),
                   "setOperandValueFromMemory " + what))
          return false;
        break;
      case NnOperand::Lifetime::kConstOwned: {
        const OwnedBytes& d = *g.owned[static_cast<size_t>(o.owned)];
        if (!check(ANeuralNetworksModel_setOperandValue(model, static_cast<int32_t>(i), d.data(), d.size()),
                   "setOperandValue " + what))
          return false;
        break;
      }
      default:
        break;
    }
  }
  for (size_t i = 0; i < g.operations.size(); ++i) {
    const NnOperation& op = g.operations[i];
    if (!check(ANeuralNetworksModel_addOperation(model, op.type, static_cast<uint32_t>(op.inputs.size()),
                                                 op.inputs.data(), static_cast<uint32_t>(op.outputs.size()),
                                                 op.outputs.data()),
               std::string("addOperation ") + NnOperationName(op.type) + " (tflite operator " +
                   std::to_string(op.tflite_op) + ")"))
      return false;
  }
  if (!check(ANeuralNetworksModel_identifyInputsAndOutputs(
                 model, static_cast<uint32_t>(g.inputs.size()), g.inputs.data(),
                 static_cast<uint32_t>(g.outputs.size()), g.outputs.data()),
             "identifyInputsAndOutputs"))
    return false;
  if (relaxed && !check(ANeuralNetworksModel_relaxComputationFloat32toFloat16(model, true),
                        "ANeuralNetworksModel_relaxComputationFloat32toFloat16"))
    return false;
  if (!check(ANeuralNetworksModel_finish(model), "ANeuralNetworksModel_finish")) return false;
  return true;
}

bool ImportModelFile(const ModelFile& file, const ImportOptions& options, ImportedModel* out,
                     ImportReport* report, std::string* error) {
  NnGraph graph;
  if (!PlanImport(file.model(), options, &graph, report)) {
    *error = report->first_error.empty() ? "import failed" : report->first_error;
    return false;
  }
  return BuildNnapiModel(std::move(graph), file.fd(), file.file_size(), out, error,
                         options.relax_float32_to_float16);
}

}  // namespace nnapi_tflite
