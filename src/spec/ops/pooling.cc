// AVERAGE_POOL_2D, MAX_POOL_2D and L2_POOL_2D: signatures, window parameters and output
// shapes.
#include "spec/ops/pooling.h"

#include "spec/ops/common.h"

namespace nn {
namespace pooling {
namespace {

bool isExplicitPadding(uint32_t numInputs) { return numInputs >= 10; }
bool hasLayoutInput(uint32_t numInputs) { return numInputs == 8 || numInputs == 11; }

}  // namespace

Status readPoolParams(const ShapeContext& ctx, PoolParams* p, PoolGeometry* g) {
  const uint32_t n = ctx.numInputs();
  const uint32_t lastScalar = isExplicitPadding(n) ? 9 : 6;
  for (uint32_t i = 1; i <= lastScalar; ++i) {
    if (ctx.isOmitted(i)) return ctx.fail("input %u is required but was omitted", i);
    if (!ctx.hasInputData(i)) return kDeferred;
  }
  p->nchw = false;
  if (hasLayoutInput(n) && !ctx.isOmitted(n - 1)) {
    if (!ctx.hasInputData(n - 1)) return kDeferred;
    p->nchw = ctx.scalar<uint8_t>(n - 1) != 0;
  }

  const Shape& in = ctx.inputShape(0);
  if (in.rank() != 4) return ctx.fail("input 0: expected rank 4, got %u", in.rank());
  g->batches = in.dim(0);
  if (p->nchw) {
    g->channels = in.dim(1);
    g->inH = in.dim(2);
    g->inW = in.dim(3);
  } else {
    g->inH = in.dim(1);
    g->inW = in.dim(2);
    g->channels = in.dim(3);
  }

  int32_t paddingCode = 0;
  if (isExplicitPadding(n)) {
    p->padLeft = ctx.scalar<int32_t>(1);
    p->padRight = ctx.scalar<int32_t>(2);
    p->padTop = ctx.scalar<int32_t>(3);
    p->padBottom = ctx.scalar<int32_t>(4);
    p->strideW = ctx.scalar<int32_t>(5);
    p->strideH = ctx.scalar<int32_t>(6);
    p->filterW = ctx.scalar<int32_t>(7);
    p->filterH = ctx.scalar<int32_t>(8);
    p->activation = ctx.scalar<int32_t>(9);
    if (p->padLeft < 0 || p->padRight < 0 || p->padTop < 0 || p->padBottom < 0)
      return ctx.fail("inputs 1-4: paddings must be >= 0, got left %d right %d top %d bottom %d",
                      p->padLeft, p->padRight, p->padTop, p->padBottom);
  } else {
    paddingCode = ctx.scalar<int32_t>(1);
    p->strideW = ctx.scalar<int32_t>(2);
    p->strideH = ctx.scalar<int32_t>(3);
    p->filterW = ctx.scalar<int32_t>(4);
    p->filterH = ctx.scalar<int32_t>(5);
    p->activation = ctx.scalar<int32_t>(6);
    if (paddingCode != kPaddingSame && paddingCode != kPaddingValid)
      return ctx.fail("input 1: implicit padding scheme must be 1 (SAME) or 2 (VALID), got %d",
                      paddingCode);
  }
  if (p->strideW < 1 || p->strideH < 1)
    return ctx.fail("strides must be >= 1, got width %d height %d", p->strideW, p->strideH);
  if (p->filterW < 1 || p->filterH < 1)
    return ctx.fail("filter size must be >= 1, got width %d height %d", p->filterW, p->filterH);
  if (!isValidFusedActivation(p->activation))
    return ctx.fail("fused activation must be 0..3, got %d", p->activation);

  if (!isExplicitPadding(n)) {
    uint32_t head, tail;
    implicitPadding(g->inW, p->strideW, 1, p->filterW, paddingCode, &head, &tail);
    p->padLeft = static_cast<int32_t>(head);
    p->padRight = static_cast<int32_t>(tail);
    implicitPadding(g->inH, p->strideH, 1, p->filterH, paddingCode, &head, &tail);
    p->padTop = static_cast<int32_t>(head);
    p->padBottom = static_cast<int32_t>(tail);
  }

  if (!windowOutputSize(g->inW, p->filterW, p->strideW, 1, p->padLeft, p->padRight, &g->outW) ||
      !windowOutputSize(g->inH, p->filterH, p->strideH, 1, p->padTop, p->padBottom, &g->outH))
    return ctx.fail(
        "filter %dx%d (WxH) does not fit the padded input %ux%u (pads l%d r%d t%d b%d)",
        p->filterW, p->filterH, g->inW, g->inH, p->padLeft, p->padRight, p->padTop,
        p->padBottom);
  return kOk;
}

}  // namespace pooling

namespace {

using namespace pooling;

enum class PoolKind { kAverage, kMax, kL2 };

// ---- validation -------------------------------------------------------------------------

Status validatePool(ValidationContext& c, PoolKind kind) {
  const uint32_t n = c.numInputs();
  if (n != 7 && n != 8 && n != 10 && n != 11)
    return c.fail("expected 10 or 11 inputs (explicit padding) or 7 or 8 (implicit padding), got %u",
                  n);
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  if (c.isOmitted(0)) return c.fail("input 0 (the input tensor) is required but has no value");

  const OperandType t = c.inputType(0);
  switch (t) {
    case OperandType::TENSOR_FLOAT32:
      break;
    case OperandType::TENSOR_FLOAT16:
      c.requireFeatureLevel(kFeatureLevel3);
      break;
    case OperandType::TENSOR_QUANT8_ASYMM:
      if (kind == PoolKind::kL2)
        return c.fail("input 0: L2_POOL_2D does not support TENSOR_QUANT8_ASYMM");
      break;
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      if (kind == PoolKind::kL2)
        return c.fail("input 0: L2_POOL_2D does not support TENSOR_QUANT8_ASYMM_SIGNED");
      c.requireFeatureLevel(kFeatureLevel4);
      break;
    default:
      return c.fail("input 0: unsupported type %s", toString(t));
  }
  NN_RETURN_IF_ERROR(c.checkInputRank(0, 4));

  const bool explicitPad = isExplicitPadding(n);
  const uint32_t numScalars = explicitPad ? 9 : 6;
  for (uint32_t i = 1; i <= numScalars; ++i) {
    if (c.isOmitted(i)) return c.fail("input %u is required but has no value", i);
    NN_RETURN_IF_ERROR(c.checkInputType(i, OperandType::INT32));
  }
  if (hasLayoutInput(n)) {
    NN_RETURN_IF_ERROR(c.checkInputType(n - 1, OperandType::BOOL));
    c.requireFeatureLevel(kFeatureLevel3);
  }

  if (c.outputType(0) != t)
    return c.fail("output 0: expected %s (the input type), got %s", toString(t),
                  toString(c.outputType(0)));
  const Operand& out = c.output(0);
  if (!out.dimensions.empty() && out.dimensions.size() != 4)
    return c.fail("output 0: expected rank 4, got %zu", out.dimensions.size());
  if (t == OperandType::TENSOR_QUANT8_ASYMM || t == OperandType::TENSOR_QUANT8_ASYMM_SIGNED) {
    const Operand& in = c.input(0);
    if (in.scale != out.scale || in.zeroPoint != out.zeroPoint)
      return c.fail("output 0: scale and zeroPoint must equal the input's (%g, %d), got (%g, %d)",
                    in.scale, in.zeroPoint, out.scale, out.zeroPoint);
  }

  // Rules on constant scalars; non-constant ones are checked again in prepare.
  auto checkAtLeast = [&](uint32_t i, int32_t min, const char* what) -> Status {
    int32_t v;
    if (c.constantScalar(i, &v) && v < min)
      return c.fail("input %u (%s) must be >= %d, got %d", i, what, min, v);
    return kOk;
  };
  int32_t v;
  if (explicitPad) {
    static const char* const kPadNames[] = {"padding left", "padding right", "padding top",
                                            "padding bottom"};
    for (uint32_t i = 1; i <= 4; ++i) NN_RETURN_IF_ERROR(checkAtLeast(i, 0, kPadNames[i - 1]));
    NN_RETURN_IF_ERROR(checkAtLeast(5, 1, "stride width"));
    NN_RETURN_IF_ERROR(checkAtLeast(6, 1, "stride height"));
    NN_RETURN_IF_ERROR(checkAtLeast(7, 1, "filter width"));
    NN_RETURN_IF_ERROR(checkAtLeast(8, 1, "filter height"));
    if (c.constantScalar(9, &v) && !isValidFusedActivation(v))
      return c.fail("input 9: fused activation must be 0..3, got %d", v);
  } else {
    if (c.constantScalar(1, &v) && v != kPaddingSame && v != kPaddingValid)
      return c.fail("input 1: implicit padding scheme must be 1 (SAME) or 2 (VALID), got %d", v);
    NN_RETURN_IF_ERROR(checkAtLeast(2, 1, "stride width"));
    NN_RETURN_IF_ERROR(checkAtLeast(3, 1, "stride height"));
    NN_RETURN_IF_ERROR(checkAtLeast(4, 1, "filter width"));
    NN_RETURN_IF_ERROR(checkAtLeast(5, 1, "filter height"));
    if (c.constantScalar(6, &v) && !isValidFusedActivation(v))
      return c.fail("input 6: fused activation must be 0..3, got %d", v);
  }
  return kOk;
}

Status validateAveragePool(ValidationContext& c) { return validatePool(c, PoolKind::kAverage); }
Status validateMaxPool(ValidationContext& c) { return validatePool(c, PoolKind::kMax); }
Status validateL2Pool(ValidationContext& c) { return validatePool(c, PoolKind::kL2); }

// ---- shapes -----------------------------------------------------------------------------

Status inferShapes(ShapeContext& ctx) {
  PoolParams p;
  PoolGeometry g;
  const Status s = readPoolParams(ctx, &p, &g);
  if (s != kOk) return s;
  if (p.nchw) return ctx.setOutputDims(0, {g.batches, g.channels, g.outH, g.outW});
  return ctx.setOutputDims(0, {g.batches, g.outH, g.outW, g.channels});
}

}  // namespace

NN_DEFINE_OPERATION_SPEC(AVERAGE_POOL_2D, validateAveragePool, inferShapes);
NN_DEFINE_OPERATION_SPEC(MAX_POOL_2D, validateMaxPool, inferShapes);
NN_DEFINE_OPERATION_SPEC(L2_POOL_2D, validateL2Pool, inferShapes);

}  // namespace nn
