// GROUPED_CONV_2D: explicit/implicit padding, NHWC/NCHW, fused activation; float32,
// float16, quant8 asymm (per-tensor or per-channel filters) and quant8 asymm signed.
// The input channels split into `groups` equal slices, each convolved with its own slice of
// output channels; the filter is [depth_out][kh][kw][depth_in / groups].
#include "spec/ops/common.h"
#include "spec/ops/conv.h"

namespace nn {
namespace {

using conv::Geometry;

constexpr uint32_t kInput = 0, kFilter = 1, kBias = 2;
constexpr uint32_t kExplicitCount = 12, kImplicitCount = 9;

// Where each scalar sits in the two forms.
struct Layout {
  bool explicitPadding;
  uint32_t padding, padLeft, padRight, padTop, padBottom, strideW, strideH, groups, activation,
      layout;
};
Layout layoutFor(uint32_t numInputs) {
  if (numInputs == kExplicitCount) return {true, 0, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  return {false, 3, 0, 0, 0, 0, 4, 5, 6, 7, 8};
}

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
  const Layout l = layoutFor(n);
  c.requireFeatureLevel(kFeatureLevel3);
  NN_RETURN_IF_ERROR(conv::validateTensorOperands(c));
  for (uint32_t i = 3; i < l.layout; ++i)
    NN_RETURN_IF_ERROR(c.checkInputType(i, OperandType::INT32));
  NN_RETURN_IF_ERROR(c.checkInputType(l.layout, OperandType::BOOL));
  if (l.explicitPadding) {
    NN_RETURN_IF_ERROR(checkConstAtLeast(c, l.padLeft, "left padding", 0));
    NN_RETURN_IF_ERROR(checkConstAtLeast(c, l.padRight, "right padding", 0));
    NN_RETURN_IF_ERROR(checkConstAtLeast(c, l.padTop, "top padding", 0));
    NN_RETURN_IF_ERROR(checkConstAtLeast(c, l.padBottom, "bottom padding", 0));
  } else {
    int32_t code = 0;
    if (c.constantScalar(l.padding, &code) && code != kPaddingSame && code != kPaddingValid)
      return c.fail("input %u (padding scheme) must be 1 (SAME) or 2 (VALID), got %d", l.padding,
                    code);
  }
  NN_RETURN_IF_ERROR(checkConstAtLeast(c, l.strideW, "width stride", 1));
  NN_RETURN_IF_ERROR(checkConstAtLeast(c, l.strideH, "height stride", 1));
  NN_RETURN_IF_ERROR(checkConstAtLeast(c, l.groups, "number of groups", 1));
  int32_t act = 0;
  if (c.constantScalar(l.activation, &act) && !isValidFusedActivation(act))
    return c.fail("input %u (fused activation) must be 0..3, got %d", l.activation, act);
  return kOk;
}

}  // namespace

// ---- geometry --------------------------------------------------------------------------

Status conv::resolveGroupedGeometry(const ShapeContext& ctx, GroupedGeometry* gg) {
  const Layout l = layoutFor(ctx.numInputs());
  for (uint32_t i = 3; i <= l.layout; ++i)
    if (!ctx.hasInputData(i)) return kDeferred;
  Geometry& g = gg->g;
  conv::Params& p = g.p;
  p = conv::Params{};
  p.nchw = ctx.scalar<uint8_t>(l.layout) != 0;
  p.strideW = ctx.scalar<int32_t>(l.strideW);
  p.strideH = ctx.scalar<int32_t>(l.strideH);
  p.activation = ctx.scalar<int32_t>(l.activation);
  const int32_t groups = ctx.scalar<int32_t>(l.groups);
  int32_t code = 0;
  if (l.explicitPadding) {
    p.padLeft = ctx.scalar<int32_t>(l.padLeft);
    p.padRight = ctx.scalar<int32_t>(l.padRight);
    p.padTop = ctx.scalar<int32_t>(l.padTop);
    p.padBottom = ctx.scalar<int32_t>(l.padBottom);
    if (p.padLeft < 0 || p.padRight < 0 || p.padTop < 0 || p.padBottom < 0)
      return ctx.fail("paddings must be >= 0, got left %d right %d top %d bottom %d", p.padLeft,
                      p.padRight, p.padTop, p.padBottom);
  } else {
    code = ctx.scalar<int32_t>(l.padding);
    if (code != kPaddingSame && code != kPaddingValid)
      return ctx.fail("input %u (padding scheme) must be 1 (SAME) or 2 (VALID), got %d",
                      l.padding, code);
  }
  if (p.strideW < 1 || p.strideH < 1)
    return ctx.fail("strides must be >= 1, got width %d height %d", p.strideW, p.strideH);
  if (groups < 1)
    return ctx.fail("input %u (number of groups) must be >= 1, got %d", l.groups, groups);
  if (!isValidFusedActivation(p.activation))
    return ctx.fail("fused activation must be 0..3, got %d", p.activation);

  const Shape& input = ctx.inputShape(kInput);
  const Shape& filter = ctx.inputShape(kFilter);
  const Shape& bias = ctx.inputShape(kBias);
  if (input.rank() != 4) return ctx.fail("input 0: expected rank 4, got %u", input.rank());
  if (filter.rank() != 4)
    return ctx.fail("input 1 (filter): expected rank 4, got %u", filter.rank());
  if (bias.rank() != 1) return ctx.fail("input 2 (bias): expected rank 1, got %u", bias.rank());
  g.batches = input.dim(0);
  g.inH = input.dim(p.nchw ? 2 : 1);
  g.inW = input.dim(p.nchw ? 3 : 2);
  g.inC = input.dim(p.nchw ? 1 : 3);
  g.outC = filter.dim(0);
  g.filterH = filter.dim(1);
  g.filterW = filter.dim(2);
  gg->groups = static_cast<uint32_t>(groups);
  gg->groupIn = filter.dim(3);
  if (static_cast<uint64_t>(gg->groupIn) * gg->groups != g.inC)
    return ctx.fail("input depth %u must equal filter depth %u * number of groups %d", g.inC,
                    gg->groupIn, groups);
  if (g.outC % gg->groups != 0)
    return ctx.fail("input 1 (filter): %u output channels are not divisible by %d groups", g.outC,
                    groups);
  gg->groupOut = g.outC / gg->groups;
  if (bias.dim(0) != g.outC)
    return ctx.fail("input 2 (bias): size %u does not match %u output channels", bias.dim(0),
                    g.outC);
  if (g.inH == 0 || g.inW == 0 || g.inC == 0 || g.outC == 0 || g.filterH == 0 || g.filterW == 0)
    return ctx.fail("only the batch dimension may be 0 (input %s, filter %s)",
                    toString(input.dims).c_str(), toString(filter.dims).c_str());
  if (!l.explicitPadding) {
    uint32_t head = 0, tail = 0;
    implicitPadding(g.inW, p.strideW, 1, g.filterW, code, &head, &tail);
    p.padLeft = static_cast<int32_t>(head);
    p.padRight = static_cast<int32_t>(tail);
    implicitPadding(g.inH, p.strideH, 1, g.filterH, code, &head, &tail);
    p.padTop = static_cast<int32_t>(head);
    p.padBottom = static_cast<int32_t>(tail);
  }
  if (!windowOutputSize(g.inW, g.filterW, p.strideW, 1, p.padLeft, p.padRight, &g.outW) ||
      !windowOutputSize(g.inH, g.filterH, p.strideH, 1, p.padTop, p.padBottom, &g.outH) ||
      g.outW == 0 || g.outH == 0)
    return ctx.fail("filter %ux%u does not fit the padded input %ux%u", g.filterH, g.filterW,
                    g.inH + p.padTop + p.padBottom, g.inW + p.padLeft + p.padRight);
  return kOk;
}


namespace {

Status inferShapes(ShapeContext& ctx) {
  conv::GroupedGeometry gg;
  NN_RETURN_IF_ERROR(conv::resolveGroupedGeometry(ctx, &gg));
  return conv::setConvOutputShape(ctx, gg.g);
}

}  // namespace

NN_DEFINE_OPERATION_SPEC(GROUPED_CONV_2D, validate, inferShapes);

}  // namespace nn
