// TRANSITIONAL: the old one-file-per-operation registration, kept while operations move to
// the catalog (src/spec/ops: validate + inferShapes) and the CPU kernels (src/cpu/kernels).
// NN_REGISTER_OPERATION defines both halves from one file: the spec (its prepare doubles as
// shape inference, called with the CPU driver's OpContext) and the CPU kernel.
#pragma once

#include "cpu/kernel.h"
#include "hal/log.h"
#include "spec/operation.h"

namespace nn {

// Old-style prepare functions take the kernel context; the CPU driver always passes one.
template <Status (*F)(OpContext&)>
Status legacyInferShapes(ShapeContext& c) {
  return F(static_cast<OpContext&>(c));
}

#define NN_OPTIONAL_INPUTS(opType, ...)                     \
  extern const uint64_t kOptionalInputs_##opType;           \
  const uint64_t kOptionalInputs_##opType = ::nn::inputMask(__VA_ARGS__)

#define NN_REGISTER_OPERATION_IMPL(opType, validateFn, prepareFn, executeFn, initFn)        \
  extern const ::nn::OperationSpec kOperationSpec_##opType;                                 \
  const ::nn::OperationSpec kOperationSpec_##opType{                                        \
      ::nn::OperationType::opType, validateFn, &::nn::legacyInferShapes<prepareFn>, 0};     \
  NN_DEFINE_CPU_KERNEL_FULL(opType, executeFn, nullptr, initFn, nullptr)
#define NN_REGISTER_OPERATION(opType, validateFn, prepareFn, executeFn) \
  NN_REGISTER_OPERATION_IMPL(opType, validateFn, prepareFn, executeFn, nullptr)
#define NN_REGISTER_OPERATION_WITH_INIT(opType, validateFn, prepareFn, executeFn, initFn) \
  NN_REGISTER_OPERATION_IMPL(opType, validateFn, prepareFn, executeFn, initFn)

}  // namespace nn
