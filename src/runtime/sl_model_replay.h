// Replaying a canonical model into an SL plugin's model (see sl_device.h).
#pragma once

#include <android/NeuralNetworksSupportLibraryImpl.h>

#include <map>
#include <string>
#include <vector>

#include "runtime/sl_device.h"
#include "runtime/sl_util.h"

namespace nn {
namespace sl {

// `slType`: the operand's type code as the plugin numbers it (extension prefixes differ).
inline ANeuralNetworksOperandType slOperandType(const Operand& o, int32_t slType,
                                                const Dims& dims) {
  ANeuralNetworksOperandType t{};
  t.type = slType;
  t.dimensionCount = static_cast<uint32_t>(dims.size());
  t.dimensions = dims.empty() ? nullptr : dims.data();
  t.scale = o.scale;
  t.zeroPoint = o.zeroPoint;
  return t;
}

// Replays a canonical model into SL models (the main one and one per referenced subgraph)
// and frees them all when it goes away. Constants larger than 128 bytes are passed by
// pointer, so whoever keeps the SL models must keep the canonical model (its pools) too.
class SlModelReplay {
 public:
  SlModelReplay(const SlDevice& device, const Model& model)
      : device_(device), t_(device.driver().table.base), model_(model) {}
  ~SlModelReplay() {
    for (auto it = owned_.rbegin(); it != owned_.rend(); ++it) t_.ANeuralNetworksModel_free(*it);
  }
  SlModelReplay(const SlModelReplay&) = delete;
  SlModelReplay& operator=(const SlModelReplay&) = delete;

  Status build() {
    referenced_.assign(model_.referenced.size(), nullptr);
    return buildSubgraph(model_.main, 0, &main_);
  }
  ANeuralNetworksModel* main() const { return main_; }
  // The plugin's code for an operand type of the model (after build()).
  int32_t slOperandTypeCode(OperandType type) const {
    const auto it = operandTypes_.find(static_cast<int32_t>(type));
    return it != operandTypes_.end() ? it->second : static_cast<int32_t>(type);
  }

 private:
  Status fail(const char* call, int code, const std::string& what) const {
    return Status(errorStatusFromResultCode(code),
                  formatString("%s%s(%s) returned %s", device_.context().c_str(), call,
                               what.c_str(), codeName(code)));
  }

  Status buildSubgraph(const Subgraph& sg, int depth, ANeuralNetworksModel** out);
  Status missingSlot(const char* slot) const;

  // The plugin numbers extensions its own way: ask it for (name, code-within-extension) on
  // the SL model being built (the codes are per process, so per library).
  Status translateExtensionCode(ANeuralNetworksModel* m, int32_t code, bool isOperand,
                                int32_t* out) const;

  Status setValue(ANeuralNetworksModel* m, const Operand& o, int32_t index, int depth);

  const SlDevice& device_;
  const NnApiSLDriverImplFL5& t_;
  const Model& model_;
  std::vector<ANeuralNetworksModel*> owned_;
  std::vector<ANeuralNetworksModel*> referenced_;
  ANeuralNetworksModel* main_ = nullptr;
  std::map<int32_t, int32_t> operandTypes_;  // extension operand codes: ours -> the plugin's
};

}  // namespace sl
}  // namespace nn
