#include "runtime/model.h"

#include <algorithm>
#include <cstring>
#include <set>

#include "runtime/memory.h"
#include "spec/catalog.h"
#include "spec/model_validation.h"
#include "spec/static_shapes.h"

namespace nn {
namespace {

constexpr size_t kConstantAlignment = 8;

uint64_t operandByteSize(const Operand& o) {
  return byteSize(o.type, o.dimensions);
}

}  // namespace

RuntimeModel::RuntimeModel() : model_(std::make_shared<Model>()) {}

ApiResult RuntimeModel::checkMutable(const char* function) const {
  if (finished_) {
    return apiError(ANEURALNETWORKS_BAD_STATE, "%s: the model is already finished%s", function,
                    invalid_ ? " (and failed validation)" : "");
  }
  return apiOk();
}

ApiResult RuntimeModel::checkOperandIndex(const char* function, int32_t index) const {
  if (index < 0 || static_cast<size_t>(index) >= model_->main.operands.size()) {
    return apiError(ANEURALNETWORKS_BAD_DATA,
                    "%s: operand index %d out of range (the model has %zu operands)", function,
                    index, model_->main.operands.size());
  }
  return apiOk();
}

namespace {
// A model input or output cannot also be given a value.
ApiResult checkNotInputOrOutput(const char* fn, int32_t index, const Operand& o) {
  if (o.lifetime == Lifetime::SUBGRAPH_INPUT || o.lifetime == Lifetime::SUBGRAPH_OUTPUT) {
    return apiError(ANEURALNETWORKS_BAD_DATA,
                    "%s (operand %d): the operand is a model %s and cannot be given a value", fn,
                    index, o.lifetime == Lifetime::SUBGRAPH_INPUT ? "input" : "output");
  }
  return apiOk();
}
}  // namespace

ApiResult RuntimeModel::addOperand(const ANeuralNetworksOperandType& type) {
  const char* fn = "ANeuralNetworksModel_addOperand";
  NN_API_RETURN_IF_ERROR(checkMutable(fn));
  if ((type.dimensionCount == 0) != (type.dimensions == nullptr)) {
    return apiError(ANEURALNETWORKS_BAD_DATA,
                    "%s (operand %zu): dimensions must be NULL exactly when dimensionCount is 0 "
                    "(dimensionCount=%u)",
                    fn, model_->main.operands.size(), type.dimensionCount);
  }
  std::string error;
  if (!validateOperandType(type.type, type.dimensionCount, type.dimensions, type.scale,
                           type.zeroPoint, /*allowUnspecifiedRank=*/true, &error)) {
    return apiError(ANEURALNETWORKS_BAD_DATA, "%s (operand %zu): %s", fn,
                    model_->main.operands.size(), error.c_str());
  }
  if (model_->main.operands.size() >= 0xFFFFFFFEu) {
    return apiError(ANEURALNETWORKS_BAD_DATA, "%s: too many operands", fn);
  }
  Operand o;
  o.type = static_cast<OperandType>(type.type);
  o.dimensions.assign(type.dimensions, type.dimensions + type.dimensionCount);
  o.scale = type.scale;
  o.zeroPoint = type.zeroPoint;
  o.lifetime = Lifetime::TEMPORARY_VARIABLE;
  model_->main.operands.push_back(std::move(o));
  return apiOk();
}

ApiResult RuntimeModel::setOperandValue(int32_t index, const void* buffer, size_t length) {
  const char* fn = "ANeuralNetworksModel_setOperandValue";
  NN_API_RETURN_IF_ERROR(checkMutable(fn));
  NN_API_RETURN_IF_ERROR(checkOperandIndex(fn, index));
  Operand& o = model_->main.operands[index];
  NN_API_RETURN_IF_ERROR(checkNotInputOrOutput(fn, index, o));
  if (buffer == nullptr) {
    if (length != 0) {
      return apiError(ANEURALNETWORKS_UNEXPECTED_NULL,
                      "%s (operand %d): buffer is NULL but length is %zu", fn, index, length);
    }
    o.lifetime = Lifetime::NO_VALUE;
    o.location = DataLocation{};
    return apiOk();
  }
  if (length > UINT32_MAX) {
    return apiError(ANEURALNETWORKS_BAD_DATA, "%s (operand %d): length %zu exceeds 4 GiB", fn,
                    index, length);
  }
  if (o.type == OperandType::SUBGRAPH) {
    return apiError(ANEURALNETWORKS_BAD_DATA,
                    "%s (operand %d): a MODEL operand takes setOperandValueFromModel", fn, index);
  }
  if (o.type != OperandType::OEM) {
    if (!isFullySpecified(o.type, o.dimensions)) {
      return apiError(ANEURALNETWORKS_BAD_DATA,
                      "%s (operand %d): a constant tensor needs fully specified dimensions, got %s",
                      fn, index, toString(o.dimensions).c_str());
    }
    const uint64_t expected = operandByteSize(o);
    if (expected != length) {
      return apiError(ANEURALNETWORKS_BAD_DATA,
                      "%s (operand %d): length %zu does not match the %s%s operand size %llu bytes",
                      fn, index, length, operandTypeName(o.type).c_str(),
                      toString(o.dimensions).c_str(),
                      static_cast<unsigned long long>(expected));
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
  return apiOk();
}

uint32_t RuntimeModel::poolIndexFor(const SharedMemory& memory) {
  auto it = poolIndexes_.find(memory.get());
  if (it != poolIndexes_.end()) return it->second;
  model_->pools.push_back(memory);
  const uint32_t index = static_cast<uint32_t>(model_->pools.size() - 1);
  poolIndexes_[memory.get()] = index;
  return index;
}

ApiResult RuntimeModel::setOperandValueFromMemory(int32_t index, const RuntimeMemory* memory,
                                                  size_t offset, size_t length) {
  const char* fn = "ANeuralNetworksModel_setOperandValueFromMemory";
  NN_API_RETURN_IF_ERROR(checkMutable(fn));
  if (memory->desc() != nullptr) {
    return apiError(ANEURALNETWORKS_BAD_DATA,
                    "%s (operand %d): a memory created from a descriptor cannot hold constants", fn,
                    index);
  }
  NN_API_RETURN_IF_ERROR(checkOperandIndex(fn, index));
  Operand& o = model_->main.operands[index];
  NN_API_RETURN_IF_ERROR(checkNotInputOrOutput(fn, index, o));
  if (!isFullySpecified(o.type, o.dimensions)) {
    return apiError(ANEURALNETWORKS_BAD_DATA,
                    "%s (operand %d): a constant tensor needs fully specified dimensions, got %s",
                    fn, index, toString(o.dimensions).c_str());
  }
  const uint64_t expected = operandByteSize(o);
  if (expected != length) {
    return apiError(ANEURALNETWORKS_BAD_DATA,
                    "%s (operand %d): length %zu does not match the operand size %llu bytes", fn,
                    index, length, static_cast<unsigned long long>(expected));
  }
  if (memory->region(offset, length) == nullptr) {
    return apiError(ANEURALNETWORKS_BAD_DATA,
                    "%s (operand %d): region [%zu, %zu+%zu) lies outside the %zu-byte memory", fn,
                    index, offset, offset, length, memory->size());
  }
  const uint32_t align = std::max<uint32_t>(1, std::min<uint32_t>(elementSize(o.type), 4));
  if (offset % align != 0) {
    return apiError(ANEURALNETWORKS_BAD_DATA,
                    "%s (operand %d): offset %zu is not aligned to the %u-byte element size", fn,
                    index, offset, align);
  }
  if (offset > UINT32_MAX || length > UINT32_MAX) {
    return apiError(ANEURALNETWORKS_BAD_DATA, "%s (operand %d): offset/length exceed 4 GiB", fn,
                    index);
  }
  o.lifetime = Lifetime::CONSTANT_REFERENCE;
  o.location = DataLocation{nullptr, poolIndexFor(memory->memory()), static_cast<uint32_t>(offset),
                            static_cast<uint32_t>(length)};
  return apiOk();
}

ApiResult RuntimeModel::setOperandValueFromModel(int32_t index, const RuntimeModel* value) {
  const char* fn = "ANeuralNetworksModel_setOperandValueFromModel";
  NN_API_RETURN_IF_ERROR(checkMutable(fn));
  if (!value->isValid()) {
    return apiError(ANEURALNETWORKS_BAD_STATE,
                    "%s (operand %d): the referenced model is not finished or is invalid", fn,
                    index);
  }
  NN_API_RETURN_IF_ERROR(checkOperandIndex(fn, index));
  Operand& o = model_->main.operands[index];
  NN_API_RETURN_IF_ERROR(checkNotInputOrOutput(fn, index, o));
  if (o.type != OperandType::SUBGRAPH) {
    return apiError(ANEURALNETWORKS_BAD_DATA, "%s (operand %d): operand type is %s, expected MODEL",
                    fn, index, toString(o.type));
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
  return apiOk();
}

ApiResult RuntimeModel::setOperandSymmPerChannelQuantParams(
    int32_t index, const ANeuralNetworksSymmPerChannelQuantParams& params) {
  const char* fn = "ANeuralNetworksModel_setOperandSymmPerChannelQuantParams";
  NN_API_RETURN_IF_ERROR(checkMutable(fn));
  NN_API_RETURN_IF_ERROR(checkOperandIndex(fn, index));
  Operand& o = model_->main.operands[index];
  if (o.type != OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL) {
    return apiError(ANEURALNETWORKS_BAD_DATA,
                    "%s (operand %d): operand type is %s, expected TENSOR_QUANT8_SYMM_PER_CHANNEL",
                    fn, index, toString(o.type));
  }
  if ((params.scaleCount == 0) != (params.scales == nullptr)) {
    return apiError(ANEURALNETWORKS_BAD_DATA,
                    "%s (operand %d): scales must be NULL exactly when scaleCount is 0", fn, index);
  }
  if (params.channelDim >= o.dimensions.size()) {
    return apiError(ANEURALNETWORKS_BAD_DATA, "%s (operand %d): channelDim %u must be < rank %zu",
                    fn, index, params.channelDim, o.dimensions.size());
  }
  if (o.dimensions[params.channelDim] == 0 || params.scaleCount != o.dimensions[params.channelDim]) {
    return apiError(ANEURALNETWORKS_BAD_DATA,
                    "%s (operand %d): scaleCount %u must equal dimension %u (%u)", fn, index,
                    params.scaleCount, params.channelDim, o.dimensions[params.channelDim]);
  }
  for (uint32_t i = 0; i < params.scaleCount; ++i) {
    if (!(params.scales[i] > 0.f)) {
      return apiError(ANEURALNETWORKS_BAD_DATA, "%s (operand %d): scale %u must be > 0, got %g", fn,
                      index, i, params.scales[i]);
    }
  }
  auto cq = std::make_shared<ChannelQuant>();
  cq->channelDim = params.channelDim;
  cq->scales.assign(params.scales, params.scales + params.scaleCount);
  o.channelQuant = std::move(cq);
  return apiOk();
}

ApiResult RuntimeModel::setOperandExtensionData(int32_t index, const void* data, size_t length) {
  const char* fn = "ANeuralNetworksModel_setOperandExtensionData";
  NN_API_RETURN_IF_ERROR(checkMutable(fn));
  NN_API_RETURN_IF_ERROR(checkOperandIndex(fn, index));
  Operand& o = model_->main.operands[index];
  if (!isExtension(o.type)) {
    return apiError(ANEURALNETWORKS_BAD_DATA, "%s (operand %d): type %s is not an extension type",
                    fn, index, toString(o.type));
  }
  if (length > UINT32_MAX) {
    return apiError(ANEURALNETWORKS_BAD_DATA, "%s (operand %d): length %zu exceeds 4 GiB", fn,
                    index, length);
  }
  const auto* bytes = static_cast<const uint8_t*>(data);
  if (length == 0) {
    o.extensionData.clear();
  } else {
    o.extensionData.assign(bytes, bytes + length);
  }
  return apiOk();
}

ApiResult RuntimeModel::addOperation(int32_t type, uint32_t inputCount, const uint32_t* inputs,
                                     uint32_t outputCount, const uint32_t* outputs) {
  const char* fn = "ANeuralNetworksModel_addOperation";
  NN_API_RETURN_IF_ERROR(checkMutable(fn));
  if (isExtensionCode(type)) {
    // Codes come from getExtensionOperationType, which assigns a prefix only to an
    // extension some device declares.
    if (extensionName(extensionPrefixOf(type)).empty()) {
      return apiError(ANEURALNETWORKS_BAD_DATA,
                      "%s: operation code %d has extension prefix %u, which no "
                      "getExtensionOperationType call assigned",
                      fn, type, extensionPrefixOf(type));
    }
  } else if (!isKnownOperationType(type)) {
    return apiError(ANEURALNETWORKS_BAD_DATA, "%s: unknown operation code %d", fn, type);
  }
  const size_t numOperands = model_->main.operands.size();
  for (uint32_t i = 0; i < inputCount; ++i) {
    if (inputs[i] >= numOperands) {
      return apiError(ANEURALNETWORKS_BAD_DATA,
                      "%s (%s): input %u refers to operand %u, but the model has %zu operands", fn,
                      operationName(static_cast<OperationType>(type)).c_str(), i, inputs[i],
                      numOperands);
    }
  }
  for (uint32_t i = 0; i < outputCount; ++i) {
    if (outputs[i] >= numOperands) {
      return apiError(ANEURALNETWORKS_BAD_DATA,
                      "%s (%s): output %u refers to operand %u, but the model has %zu operands", fn,
                      operationName(static_cast<OperationType>(type)).c_str(), i, outputs[i],
                      numOperands);
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
    Status s = spec->validate(ctx);
    // Shape rules whose inputs are already settled run now too (issue 9), e.g. a
    // FULLY_CONNECTED bias whose length differs from the number of units.
    if (s == kOk) s = checkOperationShapes(*model_, ctx.operationIndex());
    if (s != kOk) {
      model_->main.operations.pop_back();
      return apiError(ANEURALNETWORKS_BAD_DATA, "%s: %s", fn, s.message().c_str());
    }
  }
  return apiOk();
}

ApiResult RuntimeModel::identifyInputsAndOutputs(uint32_t inputCount, const uint32_t* inputs,
                                                 uint32_t outputCount, const uint32_t* outputs) {
  const char* fn = "ANeuralNetworksModel_identifyInputsAndOutputs";
  NN_API_RETURN_IF_ERROR(checkMutable(fn));
  // The inputs and outputs are declared once (issue 9): a second declaration would silently
  // renumber the execution indexes that memory descriptors and callers already rely on.
  if (identified_) {
    return apiError(ANEURALNETWORKS_BAD_STATE,
                    "%s: the model's inputs and outputs were already identified", fn);
  }
  Subgraph& sg = model_->main;
  // A failed call leaves nothing declared, so the caller may try again.
  for (uint32_t i : sg.inputIndexes) sg.operands[i].lifetime = Lifetime::TEMPORARY_VARIABLE;
  for (uint32_t i : sg.outputIndexes) sg.operands[i].lifetime = Lifetime::TEMPORARY_VARIABLE;
  sg.inputIndexes.clear();
  sg.outputIndexes.clear();
  auto bind = [&](const char* role, uint32_t count, const uint32_t* list, Lifetime lifetime,
                  std::vector<uint32_t>* dest) -> ApiResult {
    for (uint32_t i = 0; i < count; ++i) {
      const uint32_t index = list[i];
      if (index >= sg.operands.size()) {
        return apiError(ANEURALNETWORKS_BAD_DATA,
                        "%s: %s %u refers to operand %u, but the model has %zu operands", fn, role,
                        i, index, sg.operands.size());
      }
      Operand& o = sg.operands[index];
      if (o.lifetime != Lifetime::TEMPORARY_VARIABLE) {
        return apiError(ANEURALNETWORKS_BAD_DATA,
                        "%s: %s %u (operand %u) is a constant, an omitted value or already a model "
                        "input/output",
                        fn, role, i, index);
      }
      o.lifetime = lifetime;
      dest->push_back(index);
    }
    return apiOk();
  };
  ApiResult r = bind("input", inputCount, inputs, Lifetime::SUBGRAPH_INPUT, &sg.inputIndexes);
  if (r.ok())
    r = bind("output", outputCount, outputs, Lifetime::SUBGRAPH_OUTPUT, &sg.outputIndexes);
  if (!r.ok()) {
    for (uint32_t i : sg.inputIndexes) sg.operands[i].lifetime = Lifetime::TEMPORARY_VARIABLE;
    for (uint32_t i : sg.outputIndexes) sg.operands[i].lifetime = Lifetime::TEMPORARY_VARIABLE;
    sg.inputIndexes.clear();
    sg.outputIndexes.clear();
    return r;
  }
  identified_ = true;
  return apiOk();
}

ApiResult RuntimeModel::relaxComputationFloat32toFloat16(bool allow) {
  NN_API_RETURN_IF_ERROR(checkMutable("ANeuralNetworksModel_relaxComputationFloat32toFloat16"));
  model_->relaxComputationFloat32toFloat16 = allow;
  return apiOk();
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

ApiResult RuntimeModel::finish() {
  const char* fn = "ANeuralNetworksModel_finish";
  NN_API_RETURN_IF_ERROR(checkMutable(fn));
  finished_ = true;
  invalid_ = true;  // until validation succeeds
  if (model_->main.operations.empty()) {
    return apiError(ANEURALNETWORKS_BAD_DATA, "%s: the model has no operations", fn);
  }
  if (!identified_ || model_->main.outputIndexes.empty()) {
    return apiError(ANEURALNETWORKS_BAD_DATA,
                    "%s: identifyInputsAndOutputs was not called or declared no outputs", fn);
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
      return apiError(ANEURALNETWORKS_BAD_DATA,
                      "%s: a MODEL operand has no referenced model (setOperandValueFromModel)", fn);
    }
  }
  if (const Status s = validateModel(*model_, nullptr); s != kOk) {
    return apiError(ANEURALNETWORKS_BAD_DATA, "%s: %s", fn, s.message().c_str());
  }
  // Every shape rule that constants and fully specified inputs decide (issue 9).
  if (const Status s = checkStaticShapes(*model_); s != kOk) {
    return apiError(ANEURALNETWORKS_BAD_DATA, "%s: %s", fn, s.message().c_str());
  }
  invalid_ = false;
  frozen_ = model_;
  return apiOk();
}

}  // namespace nn
