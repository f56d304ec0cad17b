// RESIZE_BILINEAR / RESIZE_NEAREST_NEIGHBOR parameters, resolved by shape inference and
// again by the CPU kernels.
#pragma once

#include <cstdint>

#include "spec/operation.h"

namespace nn {
namespace resize_ops {

struct ResizeParams {
  bool nchw = false, alignCorners = false, halfPixel = false;
  uint32_t outH = 0, outW = 0;
};

// Layout, coordinate flags and the output height/width (from INT32 sizes or float scales).
// kDeferred until the size/scale and flag values are known.
Status readResizeParams(const ShapeContext& ctx, ResizeParams* p);

}  // namespace resize_ops
}  // namespace nn
