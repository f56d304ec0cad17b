// TRANSPOSE's permutation, read by shape inference and again by the CPU kernels.
#pragma once

#include <cstdint>
#include <vector>

#include "spec/operation.h"

namespace nn {
namespace transpose_ops {

// The permutation (input 1), defaulting to the reversed dimension order when omitted;
// kDeferred until its value is known.
Status readPerm(const ShapeContext& ctx, std::vector<int32_t>* perm);

}  // namespace transpose_ops
}  // namespace nn
