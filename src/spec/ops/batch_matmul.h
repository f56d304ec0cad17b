// BATCH_MATMUL's product geometry, computed by shape inference and again by the CPU kernels.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "spec/operation.h"

namespace nn {
namespace batch_matmul {

constexpr uint32_t kLhs = 0, kRhs = 1, kAdjX = 2, kAdjY = 3;

// Per output batch, the element offsets of its lhs and rhs matrices (broadcast batches
// repeat an offset).
struct MatmulGeometry {
  uint32_t m = 0, n = 0, k = 0;
  bool adjX = false, adjY = false;
  Dims outDims;
  std::vector<size_t> lhsOffset, rhsOffset;
};

// kDeferred until adj_x / adj_y are known.
Status computeGeometry(const ShapeContext& ctx, MatmulGeometry* g);

}  // namespace batch_matmul
}  // namespace nn
