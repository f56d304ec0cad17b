// PAD_V2 (pad with a given value) and MIRROR_PAD (pad by reflecting the input): signatures
// and output shapes (input + paddings per dimension).
#include "spec/ops/dim_math.h"
#include "spec/ops/pad.h"

#include "spec/ops/shape_util.h"

namespace nn {
namespace pad_ops {
namespace {

using namespace shape_ops;

// Reads and checks the [rank, 2] paddings tensor (input 1). `maxPad(d)` bounds each entry.
template <typename MaxPad>
Status readPaddings(const ShapeContext& ctx, std::vector<int32_t>* pads, MaxPad maxPad) {
  if (!ctx.hasInputData(1)) return kDeferred;
  const uint32_t rank = ctx.inputShape(0).rank();
  const Shape& p = ctx.inputShape(1);
  if (p.rank() != 2 || p.dims[0] != rank || p.dims[1] != 2)
    return ctx.fail("input 1 (paddings): expected shape [%u, 2], got %s", rank,
                    toString(p.dims).c_str());
  *pads = readInt32Vector(ctx, 1);
  for (size_t i = 0; i < pads->size(); ++i) {
    const int32_t v = (*pads)[i];
    const int64_t max = maxPad(static_cast<uint32_t>(i / 2));
    if (v < 0 || v > max)
      return ctx.fail("input 1 (paddings): entry [%zu, %zu] is %d, must be in [0, %lld]", i / 2,
                      i % 2, v, static_cast<long long>(max));
  }
  return kOk;
}

}  // namespace

Status readPadV2Paddings(const ShapeContext& ctx, std::vector<int32_t>* pads) {
  return readPaddings(ctx, pads, [](uint32_t) { return int64_t(INT32_MAX); });
}

Status readMirrorPadParams(const ShapeContext& ctx, int32_t* mode, std::vector<int32_t>* pads) {
  if (!ctx.hasInputData(2)) return kDeferred;
  const Dims& in = ctx.inputShape(0).dims;
  if (in.empty()) return ctx.fail("input 0: rank must be at least 1");
  *mode = ctx.scalar<int32_t>(2);
  if (*mode != kModeReflect && *mode != kModeSymmetric)
    return ctx.fail("input 2 (mode) is %d; expected 0 (REFLECT) or 1 (SYMMETRIC)", *mode);
  // REFLECT excludes the edge element, so it can mirror one element fewer than SYMMETRIC.
  const int64_t edge = *mode == kModeReflect ? 1 : 0;
  return readPaddings(ctx, pads, [&](uint32_t d) { return int64_t(in[d]) - edge; });
}

}  // namespace pad_ops

namespace {

using namespace shape_ops;
using pad_ops::kModeReflect;
using pad_ops::kModeSymmetric;

Status setPaddedOutput(ShapeContext& ctx, const std::vector<int32_t>& pads) {
  const Dims& in = ctx.inputShape(0).dims;
  Dims out(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    if (!dim_math::paddedDim(in[i], pads[2 * i], pads[2 * i + 1], &out[i]))
      return ctx.fail("input 1 (paddings): dimension %zu padded by %d and %d does not fit a "
                      "32-bit dimension (input extent %u)",
                      i, pads[2 * i], pads[2 * i + 1], in[i]);
  }
  return ctx.setOutputDims(0, std::move(out));
}

Status checkPaddingsOperand(ValidationContext& c) {
  NN_RETURN_IF_ERROR(requirePresent(c, 1));
  NN_RETURN_IF_ERROR(c.checkInputType(1, kI32));
  NN_RETURN_IF_ERROR(c.checkInputRank(1, 2));
  const Dims& p = c.input(1).dimensions;
  const Dims& in = c.input(0).dimensions;
  if (p.size() == 2 && p[1] != 0 && p[1] != 2)
    return c.fail("input 1 (paddings): second dimension must be 2, got %u", p[1]);
  if (p.size() == 2 && p[0] != 0 && !in.empty() && p[0] != in.size())
    return c.fail("input 1 (paddings): first dimension %u must equal the input rank %zu", p[0],
                  in.size());
  return kOk;
}

// ---- PAD_V2 -----------------------------------------------------------------------------

Status validatePadV2(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(3, 3));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  c.requireFeatureLevel(kFeatureLevel3);
  NN_RETURN_IF_ERROR(checkTensorTypeSince(
      c, 0, {{kF32, kFeatureLevel3}, {kF16, kFeatureLevel3}, {kQ8, kFeatureLevel3},
             {kQ8S, kFeatureLevel4}}));
  NN_RETURN_IF_ERROR(c.checkInputRankAtMost(0, 4));
  NN_RETURN_IF_ERROR(checkPaddingsOperand(c));
  NN_RETURN_IF_ERROR(requirePresent(c, 2));
  const OperandType t = c.inputType(0);
  const OperandType valueType = t == kF32   ? OperandType::FLOAT32
                                : t == kF16 ? OperandType::FLOAT16
                                            : OperandType::INT32;
  NN_RETURN_IF_ERROR(c.checkInputType(2, valueType));
  return checkOutputLikeInput(c, 0, 0);
}

Status inferPadV2(ShapeContext& ctx) {
  if (ctx.inputShape(0).rank() > 4)
    return ctx.fail("input 0: rank %u exceeds the maximum 4", ctx.inputShape(0).rank());
  std::vector<int32_t> pads;
  NN_RETURN_IF_ERROR(pad_ops::readPadV2Paddings(ctx, &pads));
  return setPaddedOutput(ctx, pads);
}

// ---- MIRROR_PAD -------------------------------------------------------------------------

Status validateMirrorPad(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(3, 3));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  c.requireFeatureLevel(kFeatureLevel7);
  NN_RETURN_IF_ERROR(checkTensorTypeSince(c, 0,
                                          {{kF32, kFeatureLevel7},
                                           {kF16, kFeatureLevel7},
                                           {kI32, kFeatureLevel7},
                                           {kQ8, kFeatureLevel7},
                                           {kQ8S, kFeatureLevel7}}));
  NN_RETURN_IF_ERROR(checkPaddingsOperand(c));
  NN_RETURN_IF_ERROR(requirePresent(c, 2));
  NN_RETURN_IF_ERROR(c.checkInputType(2, OperandType::INT32));
  int32_t mode = 0;
  if (c.constantScalar(2, &mode) && mode != kModeReflect && mode != kModeSymmetric)
    return c.fail("input 2 (mode) is %d; expected 0 (REFLECT) or 1 (SYMMETRIC)", mode);
  NN_RETURN_IF_ERROR(checkOutputLikeInput(c, 0, 0));
  const Dims& in = c.input(0).dimensions;
  const Dims& out = c.output(0).dimensions;
  if (!in.empty() && !out.empty() && in.size() != out.size())
    return c.fail("output 0: rank %zu differs from the input rank %zu", out.size(), in.size());
  return kOk;
}

Status inferMirrorPad(ShapeContext& ctx) {
  int32_t mode = 0;
  std::vector<int32_t> pads;
  NN_RETURN_IF_ERROR(pad_ops::readMirrorPadParams(ctx, &mode, &pads));
  return setPaddedOutput(ctx, pads);
}

}  // namespace

NN_DEFINE_OPERATION_SPEC(PAD_V2, validatePadV2, inferPadV2);
NN_DEFINE_OPERATION_SPEC(MIRROR_PAD, validateMirrorPad, inferMirrorPad);

}  // namespace nn
