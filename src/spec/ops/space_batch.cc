// Rearrangements between the batch, spatial and depth dimensions of 4-D images:
// BATCH_TO_SPACE_ND, SPACE_TO_BATCH_ND, DEPTH_TO_SPACE, SPACE_TO_DEPTH. Signatures,
// parameters and output shapes.
#include "spec/ops/dim_math.h"
#include "spec/ops/space_batch.h"

#include <cstring>

#include "spec/ops/shape_util.h"

namespace nn {
namespace space_batch {

using namespace shape_ops;

Status readLayout(const ShapeContext& ctx, uint32_t i, bool* nchw) {
  if (!readOptionalBool(ctx, i, nchw)) return kDeferred;
  return kOk;
}

Status readBlock(const ShapeContext& ctx, int32_t* block) {
  if (!ctx.hasInputData(1)) return kDeferred;
  *block = ctx.scalar<int32_t>(1);
  if (*block < 1) return ctx.fail("input 1 (block_size): must be >= 1, got %d", *block);
  return kOk;
}

Status readBlockShape(const ShapeContext& ctx, uint32_t i, int32_t block[2]) {
  if (!ctx.hasInputData(i)) return kDeferred;
  const Shape& s = ctx.inputShape(i);
  if (s.rank() != 1 || s.dims[0] != 2)
    return ctx.fail("input %u (block sizes): expected shape [2], got %s", i,
                    toString(s.dims).c_str());
  const std::vector<int32_t> v = readInt32Vector(ctx, i);
  for (int k = 0; k < 2; ++k) {
    if (v[k] < 1) return ctx.fail("input %u (block sizes): entry %d is %d; must be >= 1", i, k,
                                  v[k]);
    block[k] = v[k];
  }
  return kOk;
}

Status readSpaceToBatchParams(const ShapeContext& ctx, int32_t block[2], int32_t pads[4], bool* nchw) {
  NN_RETURN_IF_ERROR(readBlockShape(ctx, 1, block));
  if (!ctx.hasInputData(2)) return kDeferred;
  NN_RETURN_IF_ERROR(readLayout(ctx, 3, nchw));
  const Shape& p = ctx.inputShape(2);
  if (p.rank() != 2 || p.dims[0] != 2 || p.dims[1] != 2)
    return ctx.fail("input 2 (paddings): expected shape [2, 2], got %s", toString(p.dims).c_str());
  const std::vector<int32_t> v = readInt32Vector(ctx, 2);
  for (int k = 0; k < 4; ++k) {
    if (v[k] < 0)
      return ctx.fail("input 2 (paddings): entry [%d, %d] is %d; paddings must be >= 0", k / 2,
                      k % 2, v[k]);
    pads[k] = v[k];
  }
  return kOk;
}

}  // namespace space_batch

namespace {

using namespace shape_ops;
using namespace space_batch;

// Common signature part: input 0 a rank-4 tensor of a byte-moving type, output alike.
Status validateImageInput(ValidationContext& c, int64_t since) {
  c.requireFeatureLevel(since);
  NN_RETURN_IF_ERROR(checkTensorTypeSince(
      c, 0, {{kF32, since}, {kQ8, since}, {kF16, kFeatureLevel3}, {kQ8S, kFeatureLevel4}}));
  NN_RETURN_IF_ERROR(c.checkInputRank(0, 4));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  return checkOutputLikeInput(c, 0, 0);
}

Status requireRank4(const ShapeContext& ctx) {
  if (ctx.inputShape(0).rank() != 4)
    return ctx.fail("input 0: expected rank 4, got %u", ctx.inputShape(0).rank());
  return kOk;
}

// ---- DEPTH_TO_SPACE / SPACE_TO_DEPTH ----------------------------------------------------

Status validateBlockScalarOp(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(2, 3));
  NN_RETURN_IF_ERROR(validateImageInput(c, kFeatureLevel1));
  NN_RETURN_IF_ERROR(requirePresent(c, 1));
  NN_RETURN_IF_ERROR(c.checkInputType(1, OperandType::INT32));
  NN_RETURN_IF_ERROR(checkOptionalBool(c, 2, kFeatureLevel3));
  int32_t block;
  if (c.constantScalar(1, &block) && block < 1)
    return c.fail("input 1 (block_size): must be >= 1, got %d", block);
  return kOk;
}

Status inferDepthToSpace(ShapeContext& ctx) {
  NN_RETURN_IF_ERROR(requireRank4(ctx));
  int32_t block;
  bool nchw;
  NN_RETURN_IF_ERROR(readBlock(ctx, &block));
  NN_RETURN_IF_ERROR(readLayout(ctx, 2, &nchw));
  const Image4 in = image4(ctx.inputShape(0).dims, nchw);
  const uint64_t bb = uint64_t(block) * block;
  if (in.c % bb != 0)
    return ctx.fail("input 0: depth %u is not divisible by block_size^2 = %llu", in.c,
                    (unsigned long long)bb);
  uint32_t h, w;
  if (!dim_math::productDim({in.h, uint64_t(block)}, &h) ||
      !dim_math::productDim({in.w, uint64_t(block)}, &w))
    return ctx.fail("input 1 (block size): output spatial size does not fit a 32-bit dimension");
  return ctx.setOutputDims(0, makeImageDims(in.n, h, w, uint32_t(in.c / bb), nchw));
}

Status inferSpaceToDepth(ShapeContext& ctx) {
  NN_RETURN_IF_ERROR(requireRank4(ctx));
  int32_t block;
  bool nchw;
  NN_RETURN_IF_ERROR(readBlock(ctx, &block));
  NN_RETURN_IF_ERROR(readLayout(ctx, 2, &nchw));
  const Image4 in = image4(ctx.inputShape(0).dims, nchw);
  if (in.h % block != 0 || in.w % block != 0)
    return ctx.fail("input 0: height %u and width %u must both be divisible by block_size %d",
                    in.h, in.w, block);
  uint32_t c;
  if (!dim_math::productDim({in.c, uint64_t(block), uint64_t(block)}, &c))
    return ctx.fail("input 1 (block size): output depth does not fit a 32-bit dimension");
  return ctx.setOutputDims(0, makeImageDims(in.n, in.h / block, in.w / block, c, nchw));
}

// ---- BATCH_TO_SPACE_ND / SPACE_TO_BATCH_ND ----------------------------------------------

Status checkConstantBlock(ValidationContext& c, uint32_t i) {
  NN_RETURN_IF_ERROR(requirePresent(c, i));
  NN_RETURN_IF_ERROR(c.checkInputType(i, kI32));
  NN_RETURN_IF_ERROR(c.checkInputRank(i, 1));
  if (const void* p = c.constantData(i)) {
    const size_t n = c.input(i).location.length / sizeof(int32_t);
    if (n != 2) return c.fail("input %u (block sizes): expected 2 entries, got %zu", i, n);
    for (size_t k = 0; k < n; ++k) {
      int32_t v;
      memcpy(&v, static_cast<const uint8_t*>(p) + k * 4, 4);
      if (v < 1) return c.fail("input %u (block sizes): entry %zu is %d; must be >= 1", i, k, v);
    }
  }
  return kOk;
}

Status validateBatchToSpace(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(2, 3));
  NN_RETURN_IF_ERROR(validateImageInput(c, kFeatureLevel2));
  NN_RETURN_IF_ERROR(checkConstantBlock(c, 1));
  return checkOptionalBool(c, 2, kFeatureLevel3);
}

Status inferBatchToSpace(ShapeContext& ctx) {
  NN_RETURN_IF_ERROR(requireRank4(ctx));
  int32_t block[2];
  bool nchw;
  NN_RETURN_IF_ERROR(readBlockShape(ctx, 1, block));
  NN_RETURN_IF_ERROR(readLayout(ctx, 2, &nchw));
  const Image4 in = image4(ctx.inputShape(0).dims, nchw);
  const uint64_t bb = uint64_t(block[0]) * block[1];
  if (in.n % bb != 0)
    return ctx.fail("input 0: batch %u is not divisible by the block size product %llu", in.n,
                    (unsigned long long)bb);
  uint32_t h, w;
  if (!dim_math::productDim({in.h, uint64_t(block[0])}, &h) ||
      !dim_math::productDim({in.w, uint64_t(block[1])}, &w))
    return ctx.fail("input 1 (block shape): output spatial size does not fit a 32-bit dimension");
  return ctx.setOutputDims(0, makeImageDims(uint32_t(in.n / bb), h, w, in.c, nchw));
}

Status validateSpaceToBatch(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(3, 4));
  NN_RETURN_IF_ERROR(validateImageInput(c, kFeatureLevel2));
  NN_RETURN_IF_ERROR(checkConstantBlock(c, 1));
  NN_RETURN_IF_ERROR(requirePresent(c, 2));
  NN_RETURN_IF_ERROR(c.checkInputType(2, kI32));
  NN_RETURN_IF_ERROR(c.checkInputRank(2, 2));
  if (const void* p = c.constantData(2)) {
    const size_t n = c.input(2).location.length / sizeof(int32_t);
    for (size_t k = 0; k < n; ++k) {
      int32_t v;
      memcpy(&v, static_cast<const uint8_t*>(p) + k * 4, 4);
      if (v < 0)
        return c.fail("input 2 (paddings): entry [%zu, %zu] is %d; paddings must be >= 0", k / 2,
                      k % 2, v);
    }
  }
  return checkOptionalBool(c, 3, kFeatureLevel3);
}

Status inferSpaceToBatch(ShapeContext& ctx) {
  NN_RETURN_IF_ERROR(requireRank4(ctx));
  int32_t block[2], pads[4];
  bool nchw;
  NN_RETURN_IF_ERROR(readSpaceToBatchParams(ctx, block, pads, &nchw));
  const Image4 in = image4(ctx.inputShape(0).dims, nchw);
  uint32_t ph, pw, n;
  if (!dim_math::paddedDim(in.h, pads[0], pads[1], &ph) ||
      !dim_math::paddedDim(in.w, pads[2], pads[3], &pw))
    return ctx.fail("input 2 (paddings): padded size %u+%d+%d x %u+%d+%d does not fit a 32-bit "
                    "dimension",
                    in.h, pads[0], pads[1], in.w, pads[2], pads[3]);
  if (ph % block[0] != 0)
    return ctx.fail("padded height %u is not divisible by block size %d", ph, block[0]);
  if (pw % block[1] != 0)
    return ctx.fail("padded width %u is not divisible by block size %d", pw, block[1]);
  if (!dim_math::productDim({in.n, uint64_t(block[0]), uint64_t(block[1])}, &n))
    return ctx.fail("input 1 (block shape): output batch %u*%d*%d does not fit a 32-bit dimension",
                    in.n, block[0], block[1]);
  return ctx.setOutputDims(0, makeImageDims(n, ph / block[0], pw / block[1], in.c, nchw));
}

}  // namespace

NN_DEFINE_OPERATION_SPEC(DEPTH_TO_SPACE, validateBlockScalarOp, inferDepthToSpace);
NN_DEFINE_OPERATION_SPEC(SPACE_TO_DEPTH, validateBlockScalarOp, inferSpaceToDepth);
NN_DEFINE_OPERATION_SPEC(BATCH_TO_SPACE_ND, validateBatchToSpace, inferBatchToSpace);
NN_DEFINE_OPERATION_SPEC(SPACE_TO_BATCH_ND, validateSpaceToBatch, inferSpaceToBatch);

}  // namespace nn
