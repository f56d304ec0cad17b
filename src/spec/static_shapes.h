// Shape rules that can run while a model is built (issue 9): where an operation's input shapes
// and the scalar values its shape depends on are known from the model alone, its catalog
// inference runs at ANeuralNetworksModel_addOperation / finish, as the reference runtime
// validates, instead of waiting for compilation or execution.
#pragma once

#include <cstdint>

#include "hal/types.h"

namespace nn {

// Infers the main subgraph's output shapes operation by operation wherever everything they
// depend on is known (fully specified inputs, constant or omitted values), and fails with
// INVALID_ARGUMENT naming the operation when a shape rule fails or an inferred operand could
// not be represented (more than 4 GiB). A declared output shape that contradicts the inferred
// one is left to the device, as in the reference runtime.
// Referenced subgraphs get their shapes from their callers and are not checked here.
Status checkStaticShapes(const Model& model);

// The same rules for the operation `operationIndex` of the main subgraph alone, while the
// model is still being built: it runs only when its inputs are settled now (constants, omitted
// values and fully specified tensors; an unset scalar or optional input defers it to finish).
Status checkOperationShapes(const Model& model, uint32_t operationIndex);

}  // namespace nn
