#include "spec/catalog.h"

namespace nn {

// Each operation's spec file defines kOperationSpec_<NAME>; referencing every entry of the
// list here makes a missing spec a link error.
#define NN_DECLARE_SPEC(name, code) extern const OperationSpec kOperationSpec_##name;
NN_FOR_EACH_OPERATION(NN_DECLARE_SPEC)
#undef NN_DECLARE_SPEC

const OperationSpec* findOperationSpec(OperationType type) {
  switch (type) {
#define NN_SPEC_CASE(name, code) \
  case OperationType::name:      \
    return &kOperationSpec_##name;
    NN_FOR_EACH_OPERATION(NN_SPEC_CASE)
#undef NN_SPEC_CASE
    default:
      return nullptr;
  }
}

}  // namespace nn
