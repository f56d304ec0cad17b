// STRIDED_SLICE's resolved geometry, computed from shapes and values by shape inference and
// again by the CPU kernel (which walks it).
#pragma once

#include <cstdint>

#include "spec/operation.h"

namespace nn {
namespace strided_slice {

// Per-dimension start, exclusive stop and stride after resolving masks and clamping.
struct SliceParams {
  int32_t begin[4], end[4], stride[4];
  uint32_t count[4];
  uint32_t rank;
};

// Resolves the slice of input 0 from inputs 1..6 and the output dimensions (shrunk axes
// dropped; [1] when every axis is shrunk). kDeferred until inputs 1..6 have values.
Status computeSlice(const ShapeContext& ctx, SliceParams* sp, Dims* outDims);

}  // namespace strided_slice
}  // namespace nn
