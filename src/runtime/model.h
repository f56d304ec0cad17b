// ANeuralNetworksModel: builds a canonical Model through the C API and validates it at finish.
#pragma once

#include <android/NeuralNetworks.h>

#include <map>
#include <memory>
#include <vector>

#include "hal/types.h"
#include "runtime/api_result.h"

namespace nn {

class RuntimeMemory;

class RuntimeModel {
 public:
  RuntimeModel();

  ApiResult addOperand(const ANeuralNetworksOperandType& type);
  ApiResult setOperandValue(int32_t index, const void* buffer, size_t length);
  ApiResult setOperandValueFromMemory(int32_t index, const RuntimeMemory* memory, size_t offset,
                                      size_t length);
  ApiResult setOperandValueFromModel(int32_t index, const RuntimeModel* value);
  ApiResult setOperandSymmPerChannelQuantParams(
      int32_t index, const ANeuralNetworksSymmPerChannelQuantParams& params);
  ApiResult setOperandExtensionData(int32_t index, const void* data, size_t length);
  ApiResult addOperation(int32_t type, uint32_t inputCount, const uint32_t* inputs,
                         uint32_t outputCount, const uint32_t* outputs);
  ApiResult identifyInputsAndOutputs(uint32_t inputCount, const uint32_t* inputs,
                                     uint32_t outputCount, const uint32_t* outputs);
  ApiResult relaxComputationFloat32toFloat16(bool allow);
  ApiResult finish();

  bool isFinished() const { return finished_; }
  bool isValid() const { return finished_ && !invalid_; }
  // The finished, immutable model (null before a successful finish).
  const std::shared_ptr<const Model>& model() const { return frozen_; }
  size_t operationCount() const { return model_->main.operations.size(); }

 private:
  // Common guard for every mutator: BAD_STATE after finish or a failed finish.
  ApiResult checkMutable(const char* function) const;
  ApiResult checkOperandIndex(const char* function, int32_t index) const;
  uint32_t poolIndexFor(const SharedMemory& memory);
  // Appends `value`'s subgraphs and constants to model_->referenced; returns its main index.
  uint32_t mergeReferenced(const RuntimeModel* value, std::map<const RuntimeModel*, uint32_t>* done);

  std::shared_ptr<Model> model_;
  std::shared_ptr<const Model> frozen_;
  std::vector<const RuntimeModel*> referencedModels_;  // SUBGRAPH operand offsets index this
  std::map<const Memory*, uint32_t> poolIndexes_;
  bool identified_ = false;
  bool finished_ = false;
  bool invalid_ = false;
};

}  // namespace nn
