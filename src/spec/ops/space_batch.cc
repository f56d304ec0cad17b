// Rearrangements between the batch, spatial and depth dimensions of 4-D images:
// BATCH_TO_SPACE_ND, SPACE_TO_BATCH_ND, DEPTH_TO_SPACE, SPACE_TO_DEPTH. Signatures,
// parameters and output shapes.
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
  const uint64_t h = uint64_t(in.h) * block, w = uint64_t(in.w) * block;
  if (h > UINT32_MAX || w > UINT32_MAX) return ctx.fail("output spatial size is too large");
  return ctx.setOutputDims(0, makeImageDims(in.n, uint32_t(h), uint32_t(w),
                                            uint32_t(in.c / bb), nchw));
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
  const uint64_t c = uint64_t(in.c) * block * block;
  if (c > UINT32_MAX) return ctx.fail("output depth is too large");
  return ctx.setOutputDims(0, makeImageDims(in.n, in.h / block, in.w / block, uint32_t(c), nchw));
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
  const uint64_t h = uint64_t(in.h) * block[0], w = uint64_t(in.w) * block[1];
  if (h > UINT32_MAX || w > UINT32_MAX) return ctx.fail("output spatial size is too large");
  return ctx.setOutputDims(0, makeImageDims(uint32_t(in.n / bb), uint32_t(h), uint32_t(w), in.c,
                                            nchw));
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
  const uint64_t ph = uint64_t(in.h) + pads[0] + pads[1];
  const uint64_t pw = uint64_t(in.w) + pads[2] + pads[3];
  if (ph % block[0] != 0)
    return ctx.fail("padded height %llu is not divisible by block size %d",
                    (unsigned long long)ph, block[0]);
  if (pw % block[1] != 0)
    return ctx.fail("padded width %llu is not divisible by block size %d",
                    (unsigned long long)pw, block[1]);
  const uint64_t n = uint64_t(in.n) * block[0] * block[1];
  if (n > UINT32_MAX) return ctx.fail("output batch is too large");
  return ctx.setOutputDims(0, makeImageDims(uint32_t(n), uint32_t(ph / block[0]),
                                            uint32_t(pw / block[1]), in.c, nchw));
}

}  // namespace

NN_DEFINE_OPERATION_SPEC(DEPTH_TO_SPACE, validateBlockScalarOp, inferDepthToSpace);
NN_DEFINE_OPERATION_SPEC(SPACE_TO_DEPTH, validateBlockScalarOp, inferSpaceToDepth);
NN_DEFINE_OPERATION_SPEC(BATCH_TO_SPACE_ND, validateBatchToSpace, inferBatchToSpace);
NN_DEFINE_OPERATION_SPEC(SPACE_TO_BATCH_ND, validateSpaceToBatch, inferSpaceToBatch);

}  // namespace nn
