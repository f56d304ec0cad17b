// The operation catalog: every operation of NN_FOR_EACH_OPERATION with its spec, looked up by
// code. Built from the list at first use; no registration order to depend on.
#pragma once

#include "spec/operation.h"

namespace nn {

// The spec of `type`, or nullptr for codes outside the list (e.g. OEM_OPERATION).
const OperationSpec* findOperationSpec(OperationType type);

}  // namespace nn
