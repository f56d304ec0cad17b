#include "runtime/model.h"

#include <algorithm>
#include <cstring>
#include <set>

#include "hal/log.h"
#include "spec/catalog.h"
#include "spec/model_validation.h"
#include "runtime/memory.h"

namespace nn {
namespace {

constexpr size_t kConstantAlignment = 8;

uint64_t operandByteSize(const Operand& o) {
  return elementCount(o.dimensions) * elementSize(o.type);
}

}  // namespace

RuntimeModel::RuntimeModel() : model_(std::make_shared<Model>()) {}

int RuntimeModel::checkMutable(const char* function) const {
  if (finished_) {
    logError("%s: the model is already finished%s", function,
             invalid_ ? " (and failed validation)" : "");
    return ANEURALNETWORKS_BAD_STATE;
  }
  return ANEURALNETWORKS_NO_ERROR;
}

int RuntimeModel::checkOperandIndex(const char* function, int32_t index) const {
  if (index < 0 || static_cast<size_t>(index) >= model_->main.operands.size()) {
    logError("%s: operand index %d out of range (the model has %zu operands)", function, index,
             model_->main.operands.size());
    return ANEURALNETWORKS_BAD_DATA;
  }
  return ANEURALNETWORKS_NO_ERROR;
}

namespace {
// A model input or output cannot also be given a value.
int checkNotInputOrOutput(const char* fn, int32_t index, const Operand& o) {
  if (o.lifetime == Lifetime::SUBGRAPH_INPUT || o.lifetime == Lifetime::SUBGRAPH_OUTPUT) {
    logError("%s (operand %d): the operand is a model %s and cannot be given a value", fn, index,
             o.lifetime == Lifetime::SUBGRAPH_INPUT ? "input" : "output");
    return ANEURALNETWORKS_BAD_DATA;
  }
  return ANEURALNETWORKS_NO_ERROR;
}
}  // namespace

int RuntimeModel::addOperand(const ANeuralNetworksOperandType& type) {
  const char* fn = "ANeuralNetworksModel_addOperand";
  if (int r = checkMutable(fn)) return r;
  if ((type.dimensionCount == 0) != (type.dimensions == nullptr)) {
    logError("%s (operand %zu): dimensions must be NULL exactly when dimensionCount is 0 "
             "(dimensionCount=%u)", fn, model_->main.operands.size(), type.dimensionCount);
    return ANEURALNETWORKS_BAD_DATA;
  }
  std::string error;
  if (!validateOperandType(type.type, type.dimensionCount, type.dimensions, type.scale,
                           type.zeroPoint, /*allowUnspecifiedRank=*/true, &error)) {
    logError("%s (operand %zu): %s", fn, model_->main.operands.size(), error.c_str());
    return ANEURALNETWORKS_BAD_DATA;
  }
  if (model_->main.operands.size() >= 0xFFFFFFFEu) {
    logError("%s: too many operands", fn);
    return ANEURALNETWORKS_BAD_DATA;
  }
  Operand o;
  o.type = static_cast<OperandType>(type.type);
  o.dimensions.assign(type.dimensions, type.dimensions + type.dimensionCount);
  o.scale = type.scale;
  o.zeroPoint = type.zeroPoint;
  o.lifetime = Lifetime::TEMPORARY_VARIABLE;
  model_->main.operands.push_back(std::move(o));
  return ANEURALNETWORKS_NO_ERROR;
}

int RuntimeModel::setOperandValue(int32_t index, const void* buffer, size_t length) {
  const char* fn = "ANeuralNetworksModel_setOperandValue";
  if (int r = checkMutable(fn)) return r;
  if (int r = checkOperandIndex(fn, index)) return r;
  Operand& o = model_->main.operands[index];
  if (int r = checkNotInputOrOutput(fn, index, o)) return r;
  if (buffer == nullptr) {
    if (length != 0) {
      logError("%s (operand %d): buffer is NULL but length is %zu", fn, index, length);
      return ANEURALNETWORKS_UNEXPECTED_NULL;
    }
    o.lifetime = Lifetime::NO_VALUE;
    o.location = DataLocation{};
    return ANEURALNETWORKS_NO_ERROR;
  }
  if (length > UINT32_MAX) {
    logError("%s (operand %d): length %zu exceeds 4 GiB", fn, index, length);
    return ANEURALNETWORKS_BAD_DATA;
  }
  if (o.type == OperandType::SUBGRAPH) {
    logError("%s (operand %d): a MODEL operand takes setOperandValueFromModel", fn, index);
    return ANEURALNETWORKS_BAD_DATA;
  }
  if (o.type != OperandType::OEM) {
    if (!isFullySpecified(o.type, o.dimensions)) {
      logError("%s (operand %d): a constant tensor needs fully specified dimensions, got %s", fn,
               index, toString(o.dimensions).c_str());
      return ANEURALNETWORKS_BAD_DATA;
    }
    const uint64_t expected = operandByteSize(o);
    if (expected != length) {
      logError("%s (operand %d): length %zu does not match the %s%s operand size %llu bytes", fn,
               index, length, toString(o.type), toString(o.dimensions).c_str(),
               static_cast<unsigned long long>(expected));
      return ANEURALNETWORKS_BAD_DATA;
    }
  }
  if (length <= ANEURALNETWORKS_MAX_SIZE_OF_IMMEDIATELY_COPIED_VALUES) {
    std::vector<uint8_t>& values = model_->operandValues;
    const size_t offset = (values.size() + kConstantAlignment - 1) / kConstantAlignment * kConstantAlignment;
    values.resize(offset + length);
    memcpy(values.data() + offset, buffer, length);
    o.lifetime = Lifetime::CONSTANT_COPY;
    o.location = DataLocation{nullptr, 0, static_cast<uint32_t>(offset), static_cast<uint32_t>(length)};
  } else {
    // Referenced in place: the caller keeps the buffer alive for the model's lifetime.
    model_->pools.push_back(std::make_shared<PointerMemory>(buffer, length));
    o.lifetime = Lifetime::CONSTANT_REFERENCE;
    o.location = DataLocation{nullptr, static_cast<uint32_t>(model_->pools.size() - 1), 0,
                              static_cast<uint32_t>(length)};
  }
  return ANEURALNETWORKS_NO_ERROR;
}

uint32_t RuntimeModel::poolIndexFor(const SharedMemory& memory) {
  auto it = poolIndexes_.find(memory.get());
  if (it != poolIndexes_.end()) return it->second;
  model_->pools.push_back(memory);
  const uint32_t index = static_cast<uint32_t>(model_->pools.size() - 1);
  poolIndexes_[memory.get()] = index;
  return index;
}

int RuntimeModel::setOperandValueFromMemory(int32_t index, const RuntimeMemory* memory,
                                            size_t offset, size_t length) {
  const char* fn = "ANeuralNetworksModel_setOperandValueFromMemory";
  if (int r = checkMutable(fn)) return r;
  if (memory->desc() != nullptr) {
    logError("%s (operand %d): a memory created from a descriptor cannot hold constants", fn, index);
    return ANEURALNETWORKS_BAD_DATA;
  }
  if (int r = checkOperandIndex(fn, index)) return r;
  Operand& o = model_->main.operands[index];
  if (int r = checkNotInputOrOutput(fn, index, o)) return r;
  if (!isFullySpecified(o.type, o.dimensions)) {
    logError("%s (operand %d): a constant tensor needs fully specified dimensions, got %s", fn,
             index, toString(o.dimensions).c_str());
    return ANEURALNETWORKS_BAD_DATA;
  }
  const uint64_t expected = operandByteSize(o);
  if (expected != length) {
    logError("%s (operand %d): length %zu does not match the operand size %llu bytes", fn, index,
             length, static_cast<unsigned long long>(expected));
    return ANEURALNETWORKS_BAD_DATA;
  }
  if (memory->region(offset, length) == nullptr) {
    logError("%s (operand %d): region [%zu, %zu+%zu) lies outside the %zu-byte memory", fn, index,
             offset, offset, length, memory->size());
    return ANEURALNETWORKS_BAD_DATA;
  }
  const uint32_t align = std::max<uint32_t>(1, std::min<uint32_t>(elementSize(o.type), 4));
  if (offset % align != 0) {
    logError("%s (operand %d): offset %zu is not aligned to the %u-byte element size", fn, index,
             offset, align);
    return ANEURALNETWORKS_BAD_DATA;
  }
  if (offset > UINT32_MAX || length > UINT32_MAX) {
    logError("%s (operand %d): offset/length exceed 4 GiB", fn, index);
    return ANEURALNETWORKS_BAD_DATA;
  }
  o.lifetime = Lifetime::CONSTANT_REFERENCE;
  o.location = DataLocation{nullptr, poolIndexFor(memory->memory()), static_cast<uint32_t>(offset),
                            static_cast<uint32_t>(length)};
  return ANEURALNETWORKS_NO_ERROR;
}

int RuntimeModel::setOperandValueFromModel(int32_t index, const RuntimeModel* value) {
  const char* fn = "ANeuralNetworksModel_setOperandValueFromModel";
  if (int r = checkMutable(fn)) return r;
  if (!value->isValid()) {
    logError("%s (operand %d): the referenced model is not finished or is invalid", fn, index);
    return ANEURALNETWORKS_BAD_STATE;
  }
  if (int r = checkOperandIndex(fn, index)) return r;
  Operand& o = model_->main.operands[index];
  if (int r = checkNotInputOrOutput(fn, index, o)) return r;
  if (o.type != OperandType::SUBGRAPH) {
    logError("%s (operand %d): operand type is %s, expected MODEL", fn, index, toString(o.type));
    return ANEURALNETWORKS_BAD_DATA;
  }
  uint32_t slot = 0;
  auto it = std::find(referencedModels_.begin(), referencedModels_.end(), value);
  if (it == referencedModels_.end()) {
    referencedModels_.push_back(value);
    slot = static_cast<uint32_t>(referencedModels_.size() - 1);
  } else {
    slot = static_cast<uint32_t>(it - referencedModels_.begin());
  }
  o.lifetime = Lifetime::SUBGRAPH;
  o.location = DataLocation{nullptr, 0, slot, 0};
  return ANEURALNETWORKS_NO_ERROR;
}

int RuntimeModel::setOperandSymmPerChannelQuantParams(
    int32_t index, const ANeuralNetworksSymmPerChannelQuantParams& params) {
  const char* fn = "ANeuralNetworksModel_setOperandSymmPerChannelQuantParams";
  if (int r = checkMutable(fn)) return r;
  if (int r = checkOperandIndex(fn, index)) return r;
  Operand& o = model_->main.operands[index];
  if (o.type != OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL) {
    logError("%s (operand %d): operand type is %s, expected TENSOR_QUANT8_SYMM_PER_CHANNEL", fn,
             index, toString(o.type));
    return ANEURALNETWORKS_BAD_DATA;
  }
  if ((params.scaleCount == 0) != (params.scales == nullptr)) {
    logError("%s (operand %d): scales must be NULL exactly when scaleCount is 0", fn, index);
    return ANEURALNETWORKS_BAD_DATA;
  }
  if (params.channelDim >= o.dimensions.size()) {
    logError("%s (operand %d): channelDim %u must be < rank %zu", fn, index, params.channelDim,
             o.dimensions.size());
    return ANEURALNETWORKS_BAD_DATA;
  }
  if (o.dimensions[params.channelDim] == 0 || params.scaleCount != o.dimensions[params.channelDim]) {
    logError("%s (operand %d): scaleCount %u must equal dimension %u (%u)", fn, index,
             params.scaleCount, params.channelDim, o.dimensions[params.channelDim]);
    return ANEURALNETWORKS_BAD_DATA;
  }
  for (uint32_t i = 0; i < params.scaleCount; ++i) {
    if (!(params.scales[i] > 0.f)) {
      logError("%s (operand %d): scale %u must be > 0, got %g", fn, index, i, params.scales[i]);
      return ANEURALNETWORKS_BAD_DATA;
    }
  }
  auto cq = std::make_shared<ChannelQuant>();
  cq->channelDim = params.channelDim;
  cq->scales.assign(params.scales, params.scales + params.scaleCount);
  o.channelQuant = std::move(cq);
  return ANEURALNETWORKS_NO_ERROR;
}

int RuntimeModel::addOperation(int32_t type, uint32_t inputCount, const uint32_t* inputs,
                               uint32_t outputCount, const uint32_t* outputs) {
  const char* fn = "ANeuralNetworksModel_addOperation";
  if (int r = checkMutable(fn)) return r;
  if (!isKnownOperationType(type)) {
    logError("%s: unknown operation code %d", fn, type);
    return ANEURALNETWORKS_BAD_DATA;
  }
  const size_t numOperands = model_->main.operands.size();
  for (uint32_t i = 0; i < inputCount; ++i) {
    if (inputs[i] >= numOperands) {
      logError("%s (%s): input %u refers to operand %u, but the model has %zu operands", fn,
               toString(static_cast<OperationType>(type)), i, inputs[i], numOperands);
      return ANEURALNETWORKS_BAD_DATA;
    }
  }
  for (uint32_t i = 0; i < outputCount; ++i) {
    if (outputs[i] >= numOperands) {
      logError("%s (%s): output %u refers to operand %u, but the model has %zu operands", fn,
               toString(static_cast<OperationType>(type)), i, outputs[i], numOperands);
      return ANEURALNETWORKS_BAD_DATA;
    }
  }
  Operation op;
  op.type = static_cast<OperationType>(type);
  op.inputs.assign(inputs, inputs + inputCount);
  op.outputs.assign(outputs, outputs + outputCount);
  model_->main.operations.push_back(std::move(op));
  // Reject a signature that can never be valid right away, as the reference does; value
  // checks that need identifyInputsAndOutputs or later constants are repeated at finish.
  if (const OperationSpec* spec = findOperationSpec(static_cast<OperationType>(type))) {
    ValidationContext ctx(*model_, model_->main,
                          static_cast<uint32_t>(model_->main.operations.size() - 1));
    const Status s = spec->validate(ctx);
    if (s != kOk) {
      model_->main.operations.pop_back();
      logError("%s: %s", fn, s.message().c_str());
      return ANEURALNETWORKS_BAD_DATA;
    }
  }
  return ANEURALNETWORKS_NO_ERROR;
}

int RuntimeModel::identifyInputsAndOutputs(uint32_t inputCount, const uint32_t* inputs,
                                           uint32_t outputCount, const uint32_t* outputs) {
  const char* fn = "ANeuralNetworksModel_identifyInputsAndOutputs";
  if (int r = checkMutable(fn)) return r;
  Subgraph& sg = model_->main;
  // Calling again replaces the previous declaration.
  for (uint32_t i : sg.inputIndexes) sg.operands[i].lifetime = Lifetime::TEMPORARY_VARIABLE;
  for (uint32_t i : sg.outputIndexes) sg.operands[i].lifetime = Lifetime::TEMPORARY_VARIABLE;
  sg.inputIndexes.clear();
  sg.outputIndexes.clear();
  auto bind = [&](const char* role, uint32_t count, const uint32_t* list, Lifetime lifetime,
                  std::vector<uint32_t>* dest) -> int {
    for (uint32_t i = 0; i < count; ++i) {
      const uint32_t index = list[i];
      if (index >= sg.operands.size()) {
        logError("%s: %s %u refers to operand %u, but the model has %zu operands", fn, role, i,
                 index, sg.operands.size());
        return ANEURALNETWORKS_BAD_DATA;
      }
      Operand& o = sg.operands[index];
      if (o.lifetime != Lifetime::TEMPORARY_VARIABLE) {
        logError("%s: %s %u (operand %u) is a constant, an omitted value or already a model "
                 "input/output", fn, role, i, index);
        return ANEURALNETWORKS_BAD_DATA;
      }
      o.lifetime = lifetime;
      dest->push_back(index);
    }
    return ANEURALNETWORKS_NO_ERROR;
  };
  int r = bind("input", inputCount, inputs, Lifetime::SUBGRAPH_INPUT, &sg.inputIndexes);
  if (r == ANEURALNETWORKS_NO_ERROR)
    r = bind("output", outputCount, outputs, Lifetime::SUBGRAPH_OUTPUT, &sg.outputIndexes);
  if (r != ANEURALNETWORKS_NO_ERROR) {
    for (uint32_t i : sg.inputIndexes) sg.operands[i].lifetime = Lifetime::TEMPORARY_VARIABLE;
    for (uint32_t i : sg.outputIndexes) sg.operands[i].lifetime = Lifetime::TEMPORARY_VARIABLE;
    sg.inputIndexes.clear();
    sg.outputIndexes.clear();
    return r;
  }
  identified_ = true;
  return ANEURALNETWORKS_NO_ERROR;
}

int RuntimeModel::relaxComputationFloat32toFloat16(bool allow) {
  if (int r = checkMutable("ANeuralNetworksModel_relaxComputationFloat32toFloat16")) return r;
  model_->relaxComputationFloat32toFloat16 = allow;
  return ANEURALNETWORKS_NO_ERROR;
}

uint32_t RuntimeModel::mergeReferenced(const RuntimeModel* value,
                                       std::map<const RuntimeModel*, uint32_t>* done) {
  auto it = done->find(value);
  if (it != done->end()) return it->second;
  const Model& src = *value->model();
  Model& dst = *model_;
  const uint32_t base = static_cast<uint32_t>(dst.referenced.size());
  const size_t valuesBase = (dst.operandValues.size() + kConstantAlignment - 1) /
                            kConstantAlignment * kConstantAlignment;
  const uint32_t poolsBase = static_cast<uint32_t>(dst.pools.size());
  dst.operandValues.resize(valuesBase);
  dst.operandValues.insert(dst.operandValues.end(), src.operandValues.begin(),
                           src.operandValues.end());
  dst.pools.insert(dst.pools.end(), src.pools.begin(), src.pools.end());
  auto relocate = [&](Subgraph sg) {
    for (Operand& o : sg.operands) {
      if (o.lifetime == Lifetime::CONSTANT_COPY) o.location.offset += static_cast<uint32_t>(valuesBase);
      if (o.lifetime == Lifetime::CONSTANT_REFERENCE) o.location.poolIndex += poolsBase;
      // Inside `src`, SUBGRAPH offsets index src.referenced, which lands right after src.main.
      if (o.lifetime == Lifetime::SUBGRAPH) o.location.offset += base + 1;
    }
    return sg;
  };
  dst.referenced.push_back(relocate(src.main));
  for (const Subgraph& sg : src.referenced) dst.referenced.push_back(relocate(sg));
  (*done)[value] = base;
  return base;
}

int RuntimeModel::finish() {
  const char* fn = "ANeuralNetworksModel_finish";
  if (int r = checkMutable(fn)) return r;
  finished_ = true;
  invalid_ = true;  // until validation succeeds
  if (model_->main.operations.empty()) {
    logError("%s: the model has no operations", fn);
    return ANEURALNETWORKS_BAD_DATA;
  }
  if (!identified_ || model_->main.outputIndexes.empty()) {
    logError("%s: identifyInputsAndOutputs was not called or declared no outputs", fn);
    return ANEURALNETWORKS_BAD_DATA;
  }
  // Flatten referenced models (IF/WHILE bodies) into model_->referenced.
  std::map<const RuntimeModel*, uint32_t> merged;
  std::vector<uint32_t> slotToIndex(referencedModels_.size());
  for (size_t i = 0; i < referencedModels_.size(); ++i)
    slotToIndex[i] = mergeReferenced(referencedModels_[i], &merged);
  for (Operand& o : model_->main.operands)
    if (o.lifetime == Lifetime::SUBGRAPH) o.location.offset = slotToIndex[o.location.offset];
  for (const Operand& o : model_->main.operands) {
    if (o.type == OperandType::SUBGRAPH && o.lifetime != Lifetime::SUBGRAPH) {
      logError("%s: a MODEL operand has no referenced model (setOperandValueFromModel)", fn);
      return ANEURALNETWORKS_BAD_DATA;
    }
  }
  if (const Status s = validateModel(*model_, nullptr); s != kOk) {
    logError("%s: %s", fn, s.message().c_str());
    return ANEURALNETWORKS_BAD_DATA;
  }
  invalid_ = false;
  frozen_ = model_;
  return ANEURALNETWORKS_NO_ERROR;
}

}  // namespace nn
