#include "runtime/sl_model_replay.h"

#include "hal/log.h"

namespace nn {
namespace sl {
namespace {

// Nesting deeper than this is treated as a cycle (the canonical model is validated, so it
// only guards against a runtime bug turning into unbounded recursion).
constexpr int kMaxSubgraphDepth = 64;

}  // namespace

Status SlModelReplay::buildSubgraph(const Subgraph& sg, int depth, ANeuralNetworksModel** out) {
  if (depth > kMaxSubgraphDepth)
    return Status(ErrorStatus::INVALID_ARGUMENT,
                  device_.context() + "referenced subgraphs nest too deeply");
  ANeuralNetworksModel* m = nullptr;
  int r = t_.ANeuralNetworksModel_create(&m);
  if (r != ANEURALNETWORKS_NO_ERROR || m == nullptr)
    return fail("ANeuralNetworksModel_create", r == 0 ? ANEURALNETWORKS_OP_FAILED : r, "");
  owned_.push_back(m);
  for (size_t i = 0; i < sg.operands.size(); ++i) {
    const Operand& o = sg.operands[i];
    int32_t slType = static_cast<int32_t>(o.type);
    if (isExtension(o.type)) {
      Status s = translateExtensionCode(m, static_cast<int32_t>(o.type), true, &slType);
      if (!s.ok()) return s;
      operandTypes_[static_cast<int32_t>(o.type)] = slType;
    }
    const ANeuralNetworksOperandType type = slOperandType(o, slType, o.dimensions);
    const int32_t index = static_cast<int32_t>(i);
    r = t_.ANeuralNetworksModel_addOperand(m, &type);
    if (r != ANEURALNETWORKS_NO_ERROR)
      return fail("ANeuralNetworksModel_addOperand", r, formatString("operand %zu", i));
    if (!o.extensionData.empty()) {
      if (t_.ANeuralNetworksModel_setOperandExtensionData == nullptr)
        return missingSlot("ANeuralNetworksModel_setOperandExtensionData");
      r = t_.ANeuralNetworksModel_setOperandExtensionData(m, index, o.extensionData.data(),
                                                          o.extensionData.size());
      if (r != ANEURALNETWORKS_NO_ERROR)
        return fail("ANeuralNetworksModel_setOperandExtensionData", r,
                    formatString("operand %zu", i));
    }
    if (o.channelQuant) {
      ANeuralNetworksSymmPerChannelQuantParams q{};
      q.channelDim = o.channelQuant->channelDim;
      q.scaleCount = static_cast<uint32_t>(o.channelQuant->scales.size());
      q.scales = o.channelQuant->scales.data();
      r = t_.ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(m, index, &q);
      if (r != ANEURALNETWORKS_NO_ERROR)
        return fail("ANeuralNetworksModel_setOperandSymmPerChannelQuantParams", r,
                    formatString("operand %zu", i));
    }
    Status s = setValue(m, o, index, depth);
    if (!s.ok()) return s;
  }
  for (size_t i = 0; i < sg.operations.size(); ++i) {
    const Operation& op = sg.operations[i];
    int32_t slOp = static_cast<int32_t>(op.type);
    if (isExtension(op.type)) {
      Status s = translateExtensionCode(m, slOp, false, &slOp);
      if (!s.ok()) return s;
    }
    r = t_.ANeuralNetworksModel_addOperation(
        m, static_cast<ANeuralNetworksOperationType>(slOp),
        static_cast<uint32_t>(op.inputs.size()), op.inputs.data(),
        static_cast<uint32_t>(op.outputs.size()), op.outputs.data());
    if (r != ANEURALNETWORKS_NO_ERROR)
      return fail("ANeuralNetworksModel_addOperation", r,
                  formatString("%s, operation #%zu", operationName(op.type).c_str(), i));
  }
  // NULL arrays are UNEXPECTED_NULL even with a zero count (a sub-model the partitioner
  // cut may read only constants), so an empty list is passed as a valid pointer.
  static const uint32_t kNone = 0;
  r = t_.ANeuralNetworksModel_identifyInputsAndOutputs(
      m, static_cast<uint32_t>(sg.inputIndexes.size()),
      sg.inputIndexes.empty() ? &kNone : sg.inputIndexes.data(),
      static_cast<uint32_t>(sg.outputIndexes.size()),
      sg.outputIndexes.empty() ? &kNone : sg.outputIndexes.data());
  if (r != ANEURALNETWORKS_NO_ERROR)
    return fail("ANeuralNetworksModel_identifyInputsAndOutputs", r, "");
  r = t_.ANeuralNetworksModel_relaxComputationFloat32toFloat16(
      m, model_.relaxComputationFloat32toFloat16);
  if (r != ANEURALNETWORKS_NO_ERROR)
    return fail("ANeuralNetworksModel_relaxComputationFloat32toFloat16", r, "");
  r = t_.ANeuralNetworksModel_finish(m);
  if (r != ANEURALNETWORKS_NO_ERROR) return fail("ANeuralNetworksModel_finish", r, "");
  *out = m;
  return kOk;
}

Status SlModelReplay::missingSlot(const char* slot) const {
  return Status(ErrorStatus::INVALID_ARGUMENT,
                formatString("%sthe model uses vendor extensions but the plugin's table has no "
                             "%s",
                             device_.context().c_str(), slot));
}

Status SlModelReplay::translateExtensionCode(ANeuralNetworksModel* m, int32_t code, bool isOperand,
                                           int32_t* out) const {
  const std::string name = extensionName(extensionPrefixOf(code));
  const uint16_t within = codeWithinExtension(code);
  bool declared = false;
  for (const Extension& e : device_.extensions()) declared |= e.name == name;
  if (name.empty() || !declared)
    return Status(ErrorStatus::INVALID_ARGUMENT,
                  formatString("%s%s does not belong to an extension this device declares",
                               device_.context().c_str(), extensionCodeName(code).c_str()));
  const char* call = isOperand ? "ANeuralNetworksModel_getExtensionOperandType"
                               : "ANeuralNetworksModel_getExtensionOperationType";
  if ((isOperand ? (void*)t_.ANeuralNetworksModel_getExtensionOperandType
                 : (void*)t_.ANeuralNetworksModel_getExtensionOperationType) == nullptr)
    return missingSlot(call);
  int32_t slCode = 0;
  const int r =
      isOperand
          ? t_.ANeuralNetworksModel_getExtensionOperandType(m, name.c_str(), within, &slCode)
          : t_.ANeuralNetworksModel_getExtensionOperationType(m, name.c_str(), within, &slCode);
  if (r != ANEURALNETWORKS_NO_ERROR)
    return fail(call, r, formatString("'%s', %u", name.c_str(), within));
  // The answer must be an extension code for the same code within the extension.
  if (!isExtensionCode(slCode) || codeWithinExtension(slCode) != within) {
    std::string message = formatString("%s%s('%s', %u) returned garbage: code %d",
                                       device_.context().c_str(), call, name.c_str(), within,
                                       slCode);
    logInfo("%s", message.c_str());
    return Status(ErrorStatus::GENERAL_FAILURE, std::move(message));
  }
  *out = slCode;
  return kOk;
}

Status SlModelReplay::setValue(ANeuralNetworksModel* m, const Operand& o, int32_t index, int depth) {
  const DataLocation& loc = o.location;
  const void* data = nullptr;
  switch (o.lifetime) {
    case Lifetime::CONSTANT_COPY:
      if (uint64_t(loc.offset) + loc.length > model_.operandValues.size())
        return Status(ErrorStatus::INVALID_ARGUMENT,
                      formatString("%soperand %d: constant outside the model's values",
                                   device_.context().c_str(), index));
      data = model_.operandValues.data() + loc.offset;
      break;
    case Lifetime::CONSTANT_REFERENCE:
      if (loc.poolIndex >= model_.pools.size() || !model_.pools[loc.poolIndex] ||
          !model_.pools[loc.poolIndex]->contains(loc.offset, loc.length))
        return Status(ErrorStatus::INVALID_ARGUMENT,
                      formatString("%soperand %d: constant outside its memory pool",
                                   device_.context().c_str(), index));
      data = model_.pools[loc.poolIndex]->data() + loc.offset;
      break;
    case Lifetime::NO_VALUE: {
      const int r = t_.ANeuralNetworksModel_setOperandValue(m, index, nullptr, 0);
      if (r != ANEURALNETWORKS_NO_ERROR)
        return fail("ANeuralNetworksModel_setOperandValue", r,
                    formatString("operand %d, no value", index));
      return kOk;
    }
    case Lifetime::SUBGRAPH: {
      if (loc.offset >= referenced_.size())
        return Status(ErrorStatus::INVALID_ARGUMENT,
                      formatString("%soperand %d: subgraph %u does not exist",
                                   device_.context().c_str(), index, loc.offset));
      if (referenced_[loc.offset] == nullptr) {
        ANeuralNetworksModel* sub = nullptr;
        Status s = buildSubgraph(model_.referenced[loc.offset], depth + 1, &sub);
        if (!s.ok()) return s;
        referenced_[loc.offset] = sub;
      }
      const int r =
          t_.ANeuralNetworksModel_setOperandValueFromModel(m, index, referenced_[loc.offset]);
      if (r != ANEURALNETWORKS_NO_ERROR)
        return fail("ANeuralNetworksModel_setOperandValueFromModel", r,
                    formatString("operand %d", index));
      return kOk;
    }
    default:
      return kOk;  // inputs, outputs and temporaries have no value
  }
  const int r = t_.ANeuralNetworksModel_setOperandValue(m, index, data, loc.length);
  if (r != ANEURALNETWORKS_NO_ERROR)
    return fail("ANeuralNetworksModel_setOperandValue", r,
                formatString("operand %d, %u bytes", index, loc.length));
  return kOk;
}

}  // namespace sl
}  // namespace nn
