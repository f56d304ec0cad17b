#include "spec/catalog.h"

namespace nn {

// Each operation's spec file defines kOperationSpec_<NAME>.
// TRANSITIONAL: weak until every operation's spec lives in src/spec/ops (then a missing
// definition becomes a link error). Operations still registered through src/ops/operation.h
// contribute their optional inputs through kOptionalInputs_<NAME>.
#define NN_DECLARE_SPEC(name, code)                                                 \
  extern const OperationSpec kOperationSpec_##name __attribute__((weak));           \
  extern const uint64_t kOptionalInputs_##name __attribute__((weak));
NN_FOR_EACH_OPERATION(NN_DECLARE_SPEC)
#undef NN_DECLARE_SPEC

namespace {

struct Catalog {
  static constexpr size_t kDirect = 106;  // codes 0..105 index the table directly
  OperationSpec direct[kDirect] = {};
  bool present[kDirect] = {};
  OperationSpec densify{};
  bool haveDensify = false;

  Catalog() {
#define NN_ADD_SPEC(name, code)                                                      \
  if (&kOperationSpec_##name != nullptr) {                                           \
    OperationSpec s = kOperationSpec_##name;                                         \
    if (&kOptionalInputs_##name != nullptr) s.optionalInputs |= kOptionalInputs_##name; \
    put(code, s);                                                                    \
  }
    NN_FOR_EACH_OPERATION(NN_ADD_SPEC)
#undef NN_ADD_SPEC
  }
  void put(int32_t code, const OperationSpec& s) {
    if (code >= 0 && static_cast<size_t>(code) < kDirect) {
      direct[code] = s;
      present[code] = true;
    } else if (s.type == OperationType::DENSIFY) {
      densify = s;
      haveDensify = true;
    }
  }
};

const Catalog& catalog() {
  static const Catalog c;
  return c;
}

}  // namespace

const OperationSpec* findOperationSpec(OperationType type) {
  const Catalog& c = catalog();
  const int32_t code = static_cast<int32_t>(type);
  if (code >= 0 && static_cast<size_t>(code) < Catalog::kDirect)
    return c.present[code] ? &c.direct[code] : nullptr;
  if (type == OperationType::DENSIFY && c.haveDensify) return &c.densify;
  return nullptr;
}

}  // namespace nn
