#include "spec/operation.h"

#include <cstdarg>

namespace nn {
ValidationContext::ValidationContext(const Model& model, const Subgraph& subgraph,
                                     uint32_t operationIndex)
    : model_(model),
      subgraph_(subgraph),
      op_(subgraph.operations[operationIndex]),
      index_(operationIndex) {}

bool ValidationContext::isConstant(uint32_t i) const {
  const Lifetime l = input(i).lifetime;
  return l == Lifetime::CONSTANT_COPY || l == Lifetime::CONSTANT_REFERENCE;
}

const void* ValidationContext::constantData(uint32_t i) const {
  const Operand& o = input(i);
  if (o.lifetime == Lifetime::CONSTANT_COPY) {
    if (static_cast<uint64_t>(o.location.offset) + o.location.length > model_.operandValues.size())
      return nullptr;
    return model_.operandValues.data() + o.location.offset;
  }
  if (o.lifetime == Lifetime::CONSTANT_REFERENCE) {
    if (o.location.poolIndex >= model_.pools.size()) return nullptr;
    const Memory& m = *model_.pools[o.location.poolIndex];
    if (!m.contains(o.location.offset, o.location.length)) return nullptr;
    return m.data() + o.location.offset;
  }
  return nullptr;
}

const Subgraph* ValidationContext::referencedSubgraph(uint32_t i) const {
  const Operand& o = input(i);
  if (o.lifetime != Lifetime::SUBGRAPH || o.location.offset >= model_.referenced.size())
    return nullptr;
  return &model_.referenced[o.location.offset];
}

Status ValidationContext::fail(const char* fmt, ...) const {
  va_list args;
  va_start(args, fmt);
  Status s = operationError(op_.type, index_, fmt, args);
  va_end(args);
  return s;
}

Status ValidationContext::checkInputCount(uint32_t min, uint32_t max) {
  if (numInputs() < min || numInputs() > max) {
    if (min == max) return fail("expected %u inputs, got %u", min, numInputs());
    return fail("expected %u to %u inputs, got %u", min, max, numInputs());
  }
  return kOk;
}

Status ValidationContext::checkOutputCount(uint32_t count) {
  if (numOutputs() != count) return fail("expected %u outputs, got %u", count, numOutputs());
  return kOk;
}

Status ValidationContext::checkInputType(uint32_t i, OperandType type) {
  if (i >= numInputs()) return fail("missing input %u", i);
  if (isOmitted(i)) return kOk;
  if (inputType(i) != type)
    return fail("input %u (operand %u): expected %s, got %s", i, op_.inputs[i], toString(type),
                toString(inputType(i)));
  return kOk;
}

Status ValidationContext::checkInputTypes(std::initializer_list<OperandType> types) {
  uint32_t i = 0;
  for (OperandType t : types) {
    NN_RETURN_IF_ERROR(checkInputType(i, t));
    ++i;
  }
  return kOk;
}

Status ValidationContext::checkOutputTypes(std::initializer_list<OperandType> types) {
  uint32_t i = 0;
  for (OperandType t : types) {
    if (i >= numOutputs()) return fail("missing output %u", i);
    if (outputType(i) != t)
      return fail("output %u (operand %u): expected %s, got %s", i, op_.outputs[i], toString(t),
                  toString(outputType(i)));
    ++i;
  }
  return kOk;
}

Status ValidationContext::checkInputRankAtMost(uint32_t i, uint32_t max) {
  const Operand& o = input(i);
  if (!o.dimensions.empty() && o.dimensions.size() > max)
    return fail("input %u (operand %u): rank %zu exceeds the maximum %u", i, op_.inputs[i],
                o.dimensions.size(), max);
  return kOk;
}

Status ValidationContext::checkInputRank(uint32_t i, uint32_t rank) {
  const Operand& o = input(i);
  if (!o.dimensions.empty() && o.dimensions.size() != rank)
    return fail("input %u (operand %u): expected rank %u, got %zu", i, op_.inputs[i], rank,
                o.dimensions.size());
  return kOk;
}

// ---------------------------------------------------------------------------------------

Status ShapeContext::setOutputDims(uint32_t i, Dims dims) {
  OperandSlot& s = outputSlot(i);
  s.shape.dims = std::move(dims);
  s.shapeKnown = true;
  return kOk;
}

Status ShapeContext::fail(const char* fmt, ...) const {
  va_list args;
  va_start(args, fmt);
  Status s = operationError(op_.type, index_, fmt, args);
  va_end(args);
  return s;
}

}  // namespace nn
