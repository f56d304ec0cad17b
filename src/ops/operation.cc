#include "ops/operation.h"

#include <array>
#include <cstdarg>

namespace nn {
namespace {

constexpr size_t kTableSize = 106;

struct Registry {
  std::array<OperationDef*, kTableSize> defs{};
  OperationDef* densify = nullptr;
  // Registrar objects own copies so the table holds stable pointers.
  std::vector<std::unique_ptr<OperationDef>> storage;
  // Optional-input declarations may run before the operation registers (static init order).
  std::array<uint64_t, kTableSize> pendingOptional{};
};

OperationDef** slotFor(Registry& r, OperationType type) {
  const int32_t code = static_cast<int32_t>(type);
  if (code >= 0 && static_cast<size_t>(code) < kTableSize) return &r.defs[code];
  if (type == OperationType::DENSIFY) return &r.densify;
  return nullptr;
}

Registry& registry() {
  static Registry r;
  return r;
}

std::string vformat(const char* fmt, va_list args) {
  char buf[512];
  int n = vsnprintf(buf, sizeof(buf), fmt, args);
  if (n < 0) return fmt;
  return std::string(buf, std::min<size_t>(n, sizeof(buf) - 1));
}

}  // namespace

OperationRegistrar::OperationRegistrar(const OperationDef& def) {
  Registry& r = registry();
  r.storage.push_back(std::make_unique<OperationDef>(def));
  OperationDef* p = r.storage.back().get();
  const int32_t code = static_cast<int32_t>(def.type);
  if (code >= 0 && static_cast<size_t>(code) < kTableSize) p->optionalInputs |= r.pendingOptional[code];
  if (OperationDef** slot = slotFor(r, def.type)) *slot = p;
}

OperationRegistrar::OperationRegistrar(OperationType type,
                                       std::initializer_list<uint32_t> optionalInputs) {
  Registry& r = registry();
  uint64_t mask = 0;
  for (uint32_t i : optionalInputs)
    if (i < 64) mask |= uint64_t{1} << i;
  OperationDef** slot = slotFor(r, type);
  if (slot == nullptr) return;
  if (*slot != nullptr) {
    (*slot)->optionalInputs |= mask;
  } else {
    const int32_t code = static_cast<int32_t>(type);
    if (code >= 0 && static_cast<size_t>(code) < kTableSize) r.pendingOptional[code] |= mask;
  }
}

const OperationDef* findOperation(OperationType type) {
  OperationDef** slot = slotFor(registry(), type);
  return slot ? *slot : nullptr;
}

// ---------------------------------------------------------------------------------------

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

Status ValidationContext::fail(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  std::string msg = vformat(fmt, args);
  va_end(args);
  setLastError(formatString("%s (operation #%u): %s", name(), index_, msg.c_str()));
  return ErrorStatus::INVALID_ARGUMENT;
}

void ValidationContext::notImplemented(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  std::string msg = vformat(fmt, args);
  va_end(args);
  if (notImplementedReason_.empty())
    notImplementedReason_ = formatString("%s (operation #%u): not implemented: %s", name(), index_,
                                         msg.c_str());
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

Status OpContext::setOutputDims(uint32_t i, Dims dims) {
  OperandSlot& s = outputSlot(i);
  s.shape.dims = std::move(dims);
  s.shapeKnown = true;
  return kOk;
}

Status OpContext::fail(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  std::string msg = vformat(fmt, args);
  va_end(args);
  setLastError(formatString("%s (operation #%u): %s", name(), index_, msg.c_str()));
  return ErrorStatus::INVALID_ARGUMENT;
}

}  // namespace nn
