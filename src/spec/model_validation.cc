#include "spec/model_validation.h"

#include <cmath>
#include <limits>
#include <string>

#include "spec/catalog.h"

namespace nn {

bool validateOperandType(int32_t code, uint32_t dimensionCount, const uint32_t* dimensions,
                         float scale, int32_t zeroPoint, bool allowUnspecifiedRank,
                         std::string* error) {
  if (isExtensionCode(code)) {
    // Only the declaring device knows what its types mean: check what the runtime can
    // (declared, scalar or tensor, size) and leave scale/zeroPoint to the driver.
    ExtensionOperandTypeInfo info;
    if (!findExtensionOperandType(code, &info)) {
      *error = formatString("operand type %d (%s) is not declared by any device's extension",
                            code, extensionCodeName(code).c_str());
      return false;
    }
    if (!info.isTensor && dimensionCount != 0) {
      *error = formatString("%s is a scalar type but dimensionCount is %u",
                            extensionCodeName(code).c_str(), dimensionCount);
      return false;
    }
    uint64_t bytes = info.byteSize;
    for (uint32_t i = 0; i < dimensionCount; ++i) {
      if (dimensions[i] != 0) bytes *= dimensions[i];
      if (bytes > std::numeric_limits<uint32_t>::max()) {
        *error = formatString("%s operand is larger than 4 GiB", extensionCodeName(code).c_str());
        return false;
      }
    }
    return true;
  }
  if (!isKnownOperandType(code)) {
    *error = formatString("unknown operand type %d", code);
    return false;
  }
  const OperandType type = static_cast<OperandType>(code);
  if (isScalarType(type) && type != OperandType::OEM && dimensionCount != 0) {
    *error = formatString("%s is a scalar type but dimensionCount is %u", toString(type),
                          dimensionCount);
    return false;
  }
  if (isTensorType(type) && dimensionCount == 0 && !allowUnspecifiedRank) {
    *error = formatString("%s tensor of unknown rank is not allowed here", toString(type));
    return false;
  }
  auto requireScale = [&](bool positive) {
    if (positive ? !(scale > 0.f && std::isfinite(scale)) : scale != 0.f) {
      *error = formatString("%s: scale must be %s, got %g", toString(type),
                            positive ? "> 0" : "0", scale);
      return false;
    }
    return true;
  };
  auto requireZeroPoint = [&](int32_t lo, int32_t hi) {
    if (zeroPoint < lo || zeroPoint > hi) {
      *error = formatString("%s: zeroPoint must be in [%d, %d], got %d", toString(type), lo, hi,
                            zeroPoint);
      return false;
    }
    return true;
  };
  switch (type) {
    case OperandType::TENSOR_QUANT8_ASYMM:
      if (!requireScale(true) || !requireZeroPoint(0, 255)) return false;
      break;
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      if (!requireScale(true) || !requireZeroPoint(-128, 127)) return false;
      break;
    case OperandType::TENSOR_QUANT8_SYMM:
    case OperandType::TENSOR_QUANT16_SYMM:
      if (!requireScale(true) || !requireZeroPoint(0, 0)) return false;
      break;
    case OperandType::TENSOR_QUANT16_ASYMM:
      if (!requireScale(true) || !requireZeroPoint(0, 65535)) return false;
      break;
    case OperandType::TENSOR_INT32:
    case OperandType::TENSOR_OEM_BYTE:
    case OperandType::OEM:
      break;  // quantization parameters are informational here (e.g. conv bias scale)
    default:
      if (!requireScale(false) || !requireZeroPoint(0, 0)) return false;
  }
  // Total size must fit in uint32 (ABI.md 1.12).
  uint64_t bytes = elementSize(type);
  for (uint32_t i = 0; i < dimensionCount; ++i) {
    if (dimensions[i] != 0) bytes *= dimensions[i];
    if (bytes > std::numeric_limits<uint32_t>::max()) {
      *error = formatString("%s operand is larger than 4 GiB", toString(type));
      return false;
    }
  }
  return true;
}

bool topologicalOrder(const Subgraph& subgraph, std::vector<uint32_t>* order) {
  const size_t numOperands = subgraph.operands.size();
  const size_t numOperations = subgraph.operations.size();
  // Which operation writes each operand (or none).
  std::vector<int64_t> writer(numOperands, -1);
  for (size_t i = 0; i < numOperations; ++i)
    for (uint32_t o : subgraph.operations[i].outputs)
      if (o < numOperands) writer[o] = static_cast<int64_t>(i);
  std::vector<uint32_t> pending(numOperations, 0);
  std::vector<std::vector<uint32_t>> consumers(numOperations);
  for (size_t i = 0; i < numOperations; ++i) {
    for (uint32_t in : subgraph.operations[i].inputs) {
      if (in >= numOperands || writer[in] < 0) continue;
      ++pending[i];
      consumers[writer[in]].push_back(static_cast<uint32_t>(i));
    }
  }
  order->clear();
  order->reserve(numOperations);
  // Stable: prefer the order operations were added in.
  std::vector<uint32_t> ready;
  for (size_t i = numOperations; i-- > 0;)
    if (pending[i] == 0) ready.push_back(static_cast<uint32_t>(i));
  while (!ready.empty()) {
    const uint32_t op = ready.back();
    ready.pop_back();
    order->push_back(op);
    for (auto it = consumers[op].rbegin(); it != consumers[op].rend(); ++it)
      if (--pending[*it] == 0) ready.push_back(*it);
  }
  return order->size() == numOperations;
}

namespace {

Status validateSubgraph(const Model& model, const Subgraph& sg, const char* label,
                        int64_t* minLevel) {
  const size_t numOperands = sg.operands.size();
  for (size_t i = 0; i < numOperands; ++i) {
    const Operand& o = sg.operands[i];
    if (o.type == OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL) {
      if (!o.channelQuant) {
        return makeError(
            ErrorStatus::INVALID_ARGUMENT,
            "%s operand %zu: TENSOR_QUANT8_SYMM_PER_CHANNEL needs per-channel parameters "
            "(setOperandSymmPerChannelQuantParams)",
            label, i);
      }
      *minLevel = std::max(*minLevel, kFeatureLevel3);
    }
    switch (o.lifetime) {
      case Lifetime::CONSTANT_COPY:
        if (static_cast<uint64_t>(o.location.offset) + o.location.length >
            model.operandValues.size()) {
          return makeError(ErrorStatus::INVALID_ARGUMENT,
                           "%s operand %zu: constant value out of range", label, i);
        }
        break;
      case Lifetime::CONSTANT_REFERENCE:
        if (o.location.poolIndex >= model.pools.size() ||
            !model.pools[o.location.poolIndex]->contains(o.location.offset, o.location.length)) {
          return makeError(ErrorStatus::INVALID_ARGUMENT,
                           "%s operand %zu: constant region lies outside its memory", label, i);
        }
        break;
      case Lifetime::SUBGRAPH:
        if (o.location.offset >= model.referenced.size()) {
          return makeError(ErrorStatus::INVALID_ARGUMENT,
                           "%s operand %zu: referenced model index out of range", label, i);
        }
        break;
      default:
        break;
    }
  }
  for (uint32_t index : sg.inputIndexes) {
    if (index >= numOperands || sg.operands[index].lifetime != Lifetime::SUBGRAPH_INPUT) {
      return makeError(ErrorStatus::INVALID_ARGUMENT,
                       "%s: input operand %u is not a plain model input", label, index);
    }
  }
  for (uint32_t index : sg.outputIndexes) {
    if (index >= numOperands || sg.operands[index].lifetime != Lifetime::SUBGRAPH_OUTPUT) {
      return makeError(ErrorStatus::INVALID_ARGUMENT,
                       "%s: output operand %u is not a plain model output", label, index);
    }
  }
  // Every temporary and output is written by exactly one operation; nothing else is written.
  std::vector<uint32_t> writes(numOperands, 0);
  for (size_t k = 0; k < sg.operations.size(); ++k) {
    const Operation& op = sg.operations[k];
    for (uint32_t index : op.inputs) {
      if (index >= numOperands) {
        return makeError(ErrorStatus::INVALID_ARGUMENT,
                         "%s operation #%zu (%s): input operand %u out of range", label, k,
                         operationName(op.type).c_str(), index);
      }
    }
    for (uint32_t index : op.outputs) {
      if (index >= numOperands) {
        return makeError(ErrorStatus::INVALID_ARGUMENT,
                         "%s operation #%zu (%s): output operand %u out of range", label, k,
                         operationName(op.type).c_str(), index);
      }
      const Lifetime l = sg.operands[index].lifetime;
      if (l != Lifetime::TEMPORARY_VARIABLE && l != Lifetime::SUBGRAPH_OUTPUT) {
        return makeError(
            ErrorStatus::INVALID_ARGUMENT,
            "%s operation #%zu (%s): output operand %u is a model input or constant and "
            "cannot be written",
            label, k, operationName(op.type).c_str(), index);
      }
      if (++writes[index] > 1) {
        return makeError(ErrorStatus::INVALID_ARGUMENT,
                         "%s operand %u is written by more than one operation", label, index);
      }
    }
  }
  for (size_t i = 0; i < numOperands; ++i) {
    const Lifetime l = sg.operands[i].lifetime;
    if ((l == Lifetime::TEMPORARY_VARIABLE || l == Lifetime::SUBGRAPH_OUTPUT) && writes[i] == 0) {
      return makeError(ErrorStatus::INVALID_ARGUMENT,
                       "%s operand %zu (%s) is never written by any operation", label, i,
                       l == Lifetime::SUBGRAPH_OUTPUT ? "model output" : "temporary");
    }
  }
  std::vector<uint32_t> order;
  if (!topologicalOrder(sg, &order)) {
    return makeError(ErrorStatus::INVALID_ARGUMENT, "%s: the operations form a cycle", label);
  }
  for (uint32_t k = 0; k < sg.operations.size(); ++k) {
    const Operation& op = sg.operations[k];
    if (isExtension(op.type)) {
      // The catalog cannot check a vendor operation: indices, lifetimes and the single writer
      // were checked above; the device that claims it validates the rest.
      if (extensionName(extensionPrefixOf(static_cast<int32_t>(op.type))).empty())
        return makeError(ErrorStatus::INVALID_ARGUMENT,
                         "%s operation #%u: %s has no extension prefix assigned", label, k,
                         operationName(op.type).c_str());
      *minLevel = std::max(*minLevel, kFeatureLevel3);
      continue;
    }
    const OperationSpec* spec = findOperationSpec(op.type);
    if (spec == nullptr)
      return makeError(ErrorStatus::INVALID_ARGUMENT, "%s operation #%u: %s is not an operation "
                       "this runtime knows", label, k, toString(op.type));
    for (uint32_t i = 0; i < op.inputs.size(); ++i) {
      if (sg.operands[op.inputs[i]].lifetime == Lifetime::NO_VALUE &&
          !inputMayBeOmitted(*spec, i)) {
        return makeError(
            ErrorStatus::INVALID_ARGUMENT,
            "%s operation #%u (%s): input %u (operand %u) is required but has no value", label, k,
            toString(op.type), i, op.inputs[i]);
      }
    }
    ValidationContext ctx(model, sg, k);
    const Status s = spec->validate(ctx);
    if (s != kOk) return s;
    *minLevel = std::max(*minLevel, ctx.minFeatureLevel());
  }
  return kOk;
}

}  // namespace

Status validateModel(const Model& model, int64_t* minFeatureLevel) {
  int64_t level = kFeatureLevel1;
  NN_RETURN_IF_ERROR(validateSubgraph(model, model.main, "model", &level));
  for (size_t i = 0; i < model.referenced.size(); ++i) {
    const std::string label = formatString("referenced model %zu", i);
    NN_RETURN_IF_ERROR(validateSubgraph(model, model.referenced[i], label.c_str(), &level));
  }
  if (model.relaxComputationFloat32toFloat16) level = std::max(level, kFeatureLevel2);
  if (!model.referenced.empty()) level = std::max(level, kFeatureLevel4);
  if (minFeatureLevel) *minFeatureLevel = level;
  return kOk;
}

}  // namespace nn
