// CONV_2D: explicit/implicit padding, NHWC/NCHW, dilation, fused activation; float32,
// float16, quant8 asymm (per-tensor or per-channel filters) and quant8 asymm signed.
#include "spec/ops/conv.h"

namespace nn {
namespace {

constexpr bool kDepthwise = false;

Status validate(ValidationContext& c) { return conv::validateConv(c, kDepthwise); }

Status inferShapes(ShapeContext& ctx) {
  conv::Geometry g;
  NN_RETURN_IF_ERROR(conv::resolveGeometry(ctx, kDepthwise, &g));
  return conv::setConvOutputShape(ctx, g);
}

}  // namespace

NN_DEFINE_OPERATION_SPEC(CONV_2D, validate, inferShapes);

}  // namespace nn
