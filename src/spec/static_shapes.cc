#include "spec/static_shapes.h"

#include <vector>

#include "spec/catalog.h"
#include "spec/model_validation.h"
#include "spec/operation.h"

namespace nn {
namespace {

// The reference runtime refuses operands whose size does not fit 32 bits.
constexpr uint64_t kMaxOperandBytes = UINT32_MAX;

// Slots as a driver would see them before execution: constants with their bytes, omitted
// values, and fully specified tensors with known shapes. `settledOnly` (while building) treats
// operands whose value may still be set (temporaries) as unknown unless fully specified.
OperandSlot makeSlot(const Model& model, const Subgraph& sg, size_t i) {
  OperandSlot s;
  {
    const Operand& o = sg.operands[i];
    s.shape = shapeOf(o);
    switch (o.lifetime) {
      case Lifetime::CONSTANT_COPY:
        if (static_cast<uint64_t>(o.location.offset) + o.location.length <=
            model.operandValues.size()) {
          s.data = const_cast<uint8_t*>(model.operandValues.data()) + o.location.offset;
          s.capacity = o.location.length;
        }
        s.shapeKnown = s.data != nullptr || o.location.length == 0;
        s.isConstant = true;
        break;
      case Lifetime::CONSTANT_REFERENCE:
        if (o.location.poolIndex < model.pools.size() &&
            model.pools[o.location.poolIndex]->contains(o.location.offset, o.location.length)) {
          s.data = model.pools[o.location.poolIndex]->data() + o.location.offset;
          s.capacity = o.location.length;
        }
        s.shapeKnown = s.data != nullptr;
        s.isConstant = true;
        break;
      case Lifetime::NO_VALUE:
        s.omitted = true;
        s.shapeKnown = true;
        break;
      case Lifetime::SUBGRAPH:
        s.shapeKnown = true;
        s.isConstant = true;
        s.subgraph = static_cast<int32_t>(o.location.offset);
        break;
      default:  // inputs are known when fully specified; temporaries once inferred
        s.shapeKnown = o.lifetime == Lifetime::SUBGRAPH_INPUT && isFullySpecified(o.type, o.dimensions);
    }
  }
  return s;
}

std::vector<OperandSlot> makeSlots(const Model& model, const Subgraph& sg) {
  std::vector<OperandSlot> slots;
  slots.reserve(sg.operands.size());
  for (size_t i = 0; i < sg.operands.size(); ++i) slots.push_back(makeSlot(model, sg, i));
  return slots;
}

// Runs the catalog's inference for one operation whose inputs are all settled in `slots`.
// kOk: outputs inferred (slots updated); kDeferred: depends on run-time values.
Status inferOne(const Operation& op, uint32_t opIndex, bool relaxed,
                std::vector<OperandSlot>& slots) {
  const OperationSpec* spec = findOperationSpec(op.type);
  if (spec == nullptr || spec->inferShapes == nullptr) return kDeferred;
  for (uint32_t in : op.inputs) {
    const OperandSlot& s = slots[in];
    if (!s.shapeKnown) return kDeferred;
    // Scalars that come from model inputs carry their values only at execution.
    if (!s.omitted && s.data == nullptr && isScalarType(s.shape.type) &&
        s.shape.type != OperandType::SUBGRAPH)
      return kDeferred;
  }
  for (uint32_t outIndex : op.outputs) slots[outIndex].shapeKnown = false;
  ShapeContext ctx(op, opIndex, slots.data(), relaxed);
  const Status s = spec->inferShapes(ctx);
  if (s != kOk) return s;
  for (uint32_t outIndex : op.outputs) {
    OperandSlot& out = slots[outIndex];
    if (!out.shapeKnown) return kDeferred;  // a rule that only resolves at run time
    // A declared output shape that contradicts the inferred one is left to the device (the
    // reference runtime also accepts such a model and fails it later); only the rules of the
    // operation itself and the operand size limit are enforced while building.
    const uint64_t bytes = byteSize(out.shape.type, out.shape.dims);
    if (bytes > kMaxOperandBytes)
      return makeError(ErrorStatus::INVALID_ARGUMENT,
                       "%s (operation #%u): output operand %u of shape %s would need %s bytes, "
                       "more than an operand may hold (4 GiB)",
                       toString(op.type), opIndex, outIndex, toString(out.shape.dims).c_str(),
                       bytes == UINT64_MAX ? "more than 2^64"
                                           : formatString("%llu", (unsigned long long)bytes).c_str());
  }
  return kOk;
}

}  // namespace

Status checkStaticShapes(const Model& model) {
  const Subgraph& sg = model.main;
  std::vector<uint32_t> order;
  if (!topologicalOrder(sg, &order)) return kOk;  // reported by validateModel
  std::vector<OperandSlot> slots = makeSlots(model, sg);
  for (uint32_t opIndex : order) {
    const Status s = inferOne(sg.operations[opIndex], opIndex,
                              model.relaxComputationFloat32toFloat16, slots);
    if (s == kDeferred) {
      for (uint32_t outIndex : sg.operations[opIndex].outputs) slots[outIndex].shapeKnown = false;
      continue;
    }
    if (s != kOk) return s;
  }
  return kOk;
}

Status checkOperationShapes(const Model& model, uint32_t operationIndex) {
  const Subgraph& sg = model.main;
  if (operationIndex >= sg.operations.size()) return kOk;
  const Operation& op = sg.operations[operationIndex];
  const OperationSpec* spec = findOperationSpec(op.type);
  if (spec == nullptr) return kOk;
  // Runs once per ANeuralNetworksModel_addOperation, so only this operation's operands get
  // slots, renumbered 0..m-1 in a local copy of the operation: slots for the whole model made
  // building a model quadratic (~10 ms of importing pose_landmark_heavy, 689 operations).
  Operation local;
  local.type = op.type;
  std::vector<uint32_t> operandOf;  // local index -> model operand index
  auto localIndex = [&](uint32_t index) {
    for (uint32_t j = 0; j < operandOf.size(); ++j)
      if (operandOf[j] == index) return j;
    operandOf.push_back(index);
    return static_cast<uint32_t>(operandOf.size() - 1);
  };
  for (uint32_t in : op.inputs) local.inputs.push_back(localIndex(in));
  for (uint32_t out : op.outputs) local.outputs.push_back(localIndex(out));
  std::vector<OperandSlot> slots;
  slots.reserve(operandOf.size());
  for (uint32_t index : operandOf) slots.push_back(makeSlot(model, sg, index));
  for (uint32_t i = 0; i < op.inputs.size(); ++i) {
    const Operand& o = sg.operands[op.inputs[i]];
    const bool valueSet = o.lifetime == Lifetime::CONSTANT_COPY ||
                          o.lifetime == Lifetime::CONSTANT_REFERENCE ||
                          o.lifetime == Lifetime::NO_VALUE || o.lifetime == Lifetime::SUBGRAPH;
    // An optional input may still become omitted, a scalar may still get its value, and the
    // inputs and outputs are not identified yet: only settled or fully specified operands count.
    if (!valueSet && (inputMayBeOmitted(*spec, i) || isScalarType(o.type) ||
                      !isFullySpecified(o.type, o.dimensions)))
      return kOk;
    if (!valueSet) slots[local.inputs[i]].shapeKnown = true;
  }
  const Status s = inferOne(local, operationIndex, model.relaxComputationFloat32toFloat16, slots);
  if (s == kDeferred) return kOk;
  return s;
}

}  // namespace nn
