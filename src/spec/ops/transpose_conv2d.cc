// TRANSPOSE_CONV_2D: explicit padding, or implicit padding derived from an output-shape
// tensor; NHWC/NCHW; fused activation; float32, float16, quant8 asymm (per-tensor or
// per-channel filters) and quant8 asymm signed.
//
// Output size per spatial axis: (in - 1) * stride + filter - padHead - padTail. The tail
// padding may be negative (implicit SAME with filter < stride makes the output end on a
// stride boundary); such rows receive only the bias.
#include "spec/ops/dim_math.h"
#include "spec/ops/common.h"
#include "spec/ops/conv.h"

namespace nn {
namespace {

using conv::Geometry;

constexpr uint32_t kInput = 0, kFilter = 1, kBias = 2;
constexpr uint32_t kExplicitCount = 11, kImplicitCount = 9;

// ---- validation -----------------------------------------------------------------------

Status checkConstAtLeast(ValidationContext& c, uint32_t index, const char* what, int32_t min) {
  int32_t v = 0;
  if (c.constantScalar(index, &v) && v < min)
    return c.fail("input %u (%s) must be >= %d, got %d", index, what, min, v);
  return kOk;
}

Status validate(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  const uint32_t n = c.numInputs();
  if (n != kExplicitCount && n != kImplicitCount)
    return c.fail("expected %u inputs (explicit padding) or %u (implicit padding), got %u",
                  kExplicitCount, kImplicitCount, n);
  const bool explicitPadding = n == kExplicitCount;
  c.requireFeatureLevel(kFeatureLevel3);
  NN_RETURN_IF_ERROR(conv::validateTensorOperands(c));

  if (explicitPadding) {
    for (uint32_t i = 3; i <= 9; ++i) NN_RETURN_IF_ERROR(c.checkInputType(i, OperandType::INT32));
    NN_RETURN_IF_ERROR(c.checkInputType(10, OperandType::BOOL));
    // Only the head paddings must be non-negative: a negative tail extends the output.
    NN_RETURN_IF_ERROR(checkConstAtLeast(c, 3, "left padding", 0));
    NN_RETURN_IF_ERROR(checkConstAtLeast(c, 5, "top padding", 0));
    NN_RETURN_IF_ERROR(checkConstAtLeast(c, 7, "width stride", 1));
    NN_RETURN_IF_ERROR(checkConstAtLeast(c, 8, "height stride", 1));
    int32_t act = 0;
    if (c.constantScalar(9, &act) && !isValidFusedActivation(act))
      return c.fail("input 9 (fused activation) must be 0..3, got %d", act);
  } else {
    NN_RETURN_IF_ERROR(c.checkInputType(3, OperandType::TENSOR_INT32));
    NN_RETURN_IF_ERROR(c.checkInputRank(3, 1));
    for (uint32_t i = 4; i <= 7; ++i) NN_RETURN_IF_ERROR(c.checkInputType(i, OperandType::INT32));
    NN_RETURN_IF_ERROR(c.checkInputType(8, OperandType::BOOL));
    int32_t code = 0;
    if (c.constantScalar(4, &code) && code != kPaddingSame && code != kPaddingValid)
      return c.fail("input 4 (padding scheme) must be 1 (SAME) or 2 (VALID), got %d", code);
    NN_RETURN_IF_ERROR(checkConstAtLeast(c, 5, "width stride", 1));
    NN_RETURN_IF_ERROR(checkConstAtLeast(c, 6, "height stride", 1));
    int32_t act = 0;
    if (c.constantScalar(7, &act) && !isValidFusedActivation(act))
      return c.fail("input 7 (fused activation) must be 0..3, got %d", act);
  }
  return kOk;
}

// ---- geometry --------------------------------------------------------------------------

// Head and tail padding of the implicit form for an axis whose output size is `outSize`:
// the SAME rule of CONV_2D applied to the output, with the tail made to end exactly on the
// last stride (so it may be negative).
void implicitTransposePadding(int32_t outSize, int32_t stride, int32_t filter, int32_t code,
                              int32_t* head, int32_t* tail) {
  *head = 0;
  *tail = 0;
  if (code != kPaddingSame) return;
  if (stride <= 0) return;
  // In 64 bits: outSize + stride and steps * stride overflow int32 for hostile values; the
  // paddings are clamped to int32 (the output size check then fails cleanly).
  const int64_t steps = (int64_t(outSize) + stride - 1) / stride;
  const int64_t needed = (steps - 1) * stride + filter;
  const int64_t head64 = needed > outSize ? (needed - outSize) / 2 : 0;
  const int64_t tail64 = needed - outSize - head64;
  auto clamp32 = [](int64_t v) {
    return static_cast<int32_t>(std::min<int64_t>(std::max<int64_t>(v, INT32_MIN), INT32_MAX));
  };
  *head = clamp32(head64);
  *tail = clamp32(tail64);
}

}  // namespace

// Fills g (NHWC sizes; p.pad* may have negative tails). kDeferred when a scalar or the output
// shape tensor has no value yet.
Status conv::resolveTransposeGeometry(const ShapeContext& ctx, Geometry* g) {
  const bool explicitPadding = ctx.numInputs() == kExplicitCount;
  const uint32_t layoutIndex = explicitPadding ? 10 : 8;
  const uint32_t first = 3, last = layoutIndex;
  for (uint32_t i = first; i <= last; ++i)
    if (!ctx.hasInputData(i)) return kDeferred;
  conv::Params& p = g->p;
  p = conv::Params{};
  p.nchw = ctx.scalar<uint8_t>(layoutIndex) != 0;
  int32_t code = 0;
  if (explicitPadding) {
    p.padLeft = ctx.scalar<int32_t>(3);
    p.padRight = ctx.scalar<int32_t>(4);
    p.padTop = ctx.scalar<int32_t>(5);
    p.padBottom = ctx.scalar<int32_t>(6);
    p.strideW = ctx.scalar<int32_t>(7);
    p.strideH = ctx.scalar<int32_t>(8);
    p.activation = ctx.scalar<int32_t>(9);
  } else {
    code = ctx.scalar<int32_t>(4);
    p.strideW = ctx.scalar<int32_t>(5);
    p.strideH = ctx.scalar<int32_t>(6);
    p.activation = ctx.scalar<int32_t>(7);
    if (code != kPaddingSame && code != kPaddingValid)
      return ctx.fail("input 4 (padding scheme) must be 1 (SAME) or 2 (VALID), got %d", code);
  }
  if (p.strideW < 1 || p.strideH < 1)
    return ctx.fail("strides must be >= 1, got width %d height %d", p.strideW, p.strideH);
  if (!isValidFusedActivation(p.activation))
    return ctx.fail("fused activation must be 0..3, got %d", p.activation);

  const Shape& input = ctx.inputShape(kInput);
  const Shape& filter = ctx.inputShape(kFilter);
  const Shape& bias = ctx.inputShape(kBias);
  if (input.rank() != 4) return ctx.fail("input 0: expected rank 4, got %u", input.rank());
  if (filter.rank() != 4)
    return ctx.fail("input 1 (filter): expected rank 4, got %u", filter.rank());
  if (bias.rank() != 1) return ctx.fail("input 2 (bias): expected rank 1, got %u", bias.rank());
  g->batches = input.dim(0);
  g->inH = input.dim(p.nchw ? 2 : 1);
  g->inW = input.dim(p.nchw ? 3 : 2);
  g->inC = input.dim(p.nchw ? 1 : 3);
  g->outC = filter.dim(0);
  g->filterH = filter.dim(1);
  g->filterW = filter.dim(2);
  if (filter.dim(3) != g->inC)
    return ctx.fail("input 1 (filter): depth %u does not match input depth %u", filter.dim(3),
                    g->inC);
  if (bias.dim(0) != g->outC)
    return ctx.fail("input 2 (bias): size %u does not match %u output channels", bias.dim(0),
                    g->outC);
  if (g->inH == 0 || g->inW == 0 || g->inC == 0 || g->outC == 0 || g->filterH == 0 ||
      g->filterW == 0)
    return ctx.fail("only the batch dimension may be 0 (input %s, filter %s)",
                    toString(input.dims).c_str(), toString(filter.dims).c_str());

  if (!explicitPadding) {
    const Shape& shapeTensor = ctx.inputShape(3);
    if (shapeTensor.rank() != 1 || shapeTensor.dim(0) != 4)
      return ctx.fail("input 3 (output shape): expected a 1-D tensor of 4 values, got shape %s",
                      toString(shapeTensor.dims).c_str());
    const int32_t* dims = ctx.input<int32_t>(3);
    const int32_t outH = dims[p.nchw ? 2 : 1];
    const int32_t outW = dims[p.nchw ? 3 : 2];
    if (outH < 1 || outW < 1)
      return ctx.fail("input 3 (output shape): height and width must be >= 1, got %d and %d",
                      outH, outW);
    implicitTransposePadding(outW, p.strideW, static_cast<int32_t>(g->filterW), code, &p.padLeft,
                             &p.padRight);
    implicitTransposePadding(outH, p.strideH, static_cast<int32_t>(g->filterH), code, &p.padTop,
                             &p.padBottom);
  }
  if (p.padLeft < 0 || p.padTop < 0)
    return ctx.fail("left and top paddings must be >= 0, got %d and %d", p.padLeft, p.padTop);
  const int64_t outW = (static_cast<int64_t>(g->inW) - 1) * p.strideW + g->filterW -
                       p.padLeft - p.padRight;
  const int64_t outH = (static_cast<int64_t>(g->inH) - 1) * p.strideH + g->filterH - p.padTop -
                       p.padBottom;
  if (outW < 1 || outH < 1 || outW > INT32_MAX || outH > INT32_MAX)
    return ctx.fail(
        "output size %lldx%lld (from input %ux%u, filter %ux%u, strides %dx%d, paddings "
        "left %d right %d top %d bottom %d) must be positive",
        static_cast<long long>(outH), static_cast<long long>(outW), g->inH, g->inW, g->filterH,
        g->filterW, p.strideH, p.strideW, p.padLeft, p.padRight, p.padTop, p.padBottom);
  g->outH = static_cast<uint32_t>(outH);
  g->outW = static_cast<uint32_t>(outW);
  return kOk;
}

namespace {

Status inferShapes(ShapeContext& ctx) {
  Geometry g;
  NN_RETURN_IF_ERROR(conv::resolveTransposeGeometry(ctx, &g));
  return conv::setConvOutputShape(ctx, g);
}

}  // namespace

NN_DEFINE_OPERATION_SPEC(TRANSPOSE_CONV_2D, validate, inferShapes);

}  // namespace nn
