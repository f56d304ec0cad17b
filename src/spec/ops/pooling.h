// AVERAGE_POOL_2D / MAX_POOL_2D / L2_POOL_2D parameters and window geometry, resolved by
// shape inference and again by the CPU kernels.
#pragma once

#include <cstdint>

#include "spec/operation.h"

namespace nn {
namespace pooling {

// Explicit padding (10 or 11 inputs) gives all four pads; implicit padding (7 or 8 inputs)
// derives them from a SAME/VALID code. Pads are explicit after readPoolParams either way.
struct PoolParams {
  int32_t padLeft = 0, padRight = 0, padTop = 0, padBottom = 0;
  int32_t strideW = 1, strideH = 1, filterW = 1, filterH = 1;
  int32_t activation = 0;
  bool nchw = false;
};

struct PoolGeometry {
  uint32_t batches = 0, inH = 0, inW = 0, channels = 0, outH = 0, outW = 0;
};

// Reads the scalar parameters and derives the geometry. Returns kDeferred when a scalar is
// not known yet (non-constant at compilation).
Status readPoolParams(const ShapeContext& ctx, PoolParams* p, PoolGeometry* g);

}  // namespace pooling
}  // namespace nn
