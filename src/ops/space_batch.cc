// Rearrangements between the batch, spatial and depth dimensions of 4-D images:
// BATCH_TO_SPACE_ND, SPACE_TO_BATCH_ND, DEPTH_TO_SPACE, SPACE_TO_DEPTH. Each output pixel
// takes the channel vector of one input pixel (or the logical zero for padding), so in NHWC
// the kernels move whole channel runs with memcpy; NCHW walks the channel stride.
#include "ops/operation.h"
#include "spec/ops/shape_util.h"

namespace nn {
namespace {

using namespace shape_ops;

// Common signature part: input 0 a rank-4 tensor of a byte-moving type, output alike.
Status validateImageInput(ValidationContext& c, int64_t since) {
  c.requireFeatureLevel(since);
  NN_RETURN_IF_ERROR(checkTensorTypeSince(
      c, 0, {{kF32, since}, {kQ8, since}, {kF16, kFeatureLevel3}, {kQ8S, kFeatureLevel4}}));
  NN_RETURN_IF_ERROR(c.checkInputRank(0, 4));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  return checkOutputLikeInput(c, 0, 0);
}

Status readLayout(OpContext& ctx, uint32_t i, bool* nchw) {
  if (!readOptionalBool(ctx, i, nchw)) return kDeferred;
  return kOk;
}

Status requireRank4(OpContext& ctx) {
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

Status readBlock(OpContext& ctx, int32_t* block) {
  if (!ctx.hasInputData(1)) return kDeferred;
  *block = ctx.scalar<int32_t>(1);
  if (*block < 1) return ctx.fail("input 1 (block_size): must be >= 1, got %d", *block);
  return kOk;
}

Status prepareDepthToSpace(OpContext& ctx) {
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

Status prepareSpaceToDepth(OpContext& ctx) {
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

// Output pixel (b, y, x) of DEPTH_TO_SPACE reads input pixel (b, y/bs, x/bs) at channel
// offset ((y%bs)*bs + x%bs) * outDepth; SPACE_TO_DEPTH is the inverse mapping.
template <typename T>
void depthToSpace(const T* src, const Image4& in, T* dst, const Image4& out, uint32_t bs) {
  for (uint32_t b = 0; b < out.n; ++b)
    for (uint32_t y = 0; y < out.h; ++y)
      for (uint32_t x = 0; x < out.w; ++x) {
        const uint32_t cOff = ((y % bs) * bs + (x % bs)) * out.c;
        const T* s = src + b * in.sn + (y / bs) * in.sh + (x / bs) * in.sw + cOff * in.sc;
        T* d = dst + b * out.sn + y * out.sh + x * out.sw;
        copyChannels(d, out.sc, s, in.sc, out.c);
      }
}

template <typename T>
void spaceToDepth(const T* src, const Image4& in, T* dst, const Image4& out, uint32_t bs) {
  for (uint32_t b = 0; b < in.n; ++b)
    for (uint32_t y = 0; y < in.h; ++y)
      for (uint32_t x = 0; x < in.w; ++x) {
        const uint32_t cOff = ((y % bs) * bs + (x % bs)) * in.c;
        const T* s = src + b * in.sn + y * in.sh + x * in.sw;
        T* d = dst + b * out.sn + (y / bs) * out.sh + (x / bs) * out.sw + cOff * out.sc;
        copyChannels(d, out.sc, s, in.sc, in.c);
      }
}

template <bool kToSpace>
Status executeDepthSpace(OpContext& ctx) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  int32_t block;
  bool nchw;
  NN_RETURN_IF_ERROR(readBlock(ctx, &block));
  NN_RETURN_IF_ERROR(readLayout(ctx, 2, &nchw));
  const Image4 in = image4(ctx.inputShape(0).dims, nchw);
  const Image4 out = image4(ctx.outputShape(0).dims, nchw);
  return withElementType(elementSize(ctx.inputType(0)), [&](auto tag) {
    using T = decltype(tag);
    if (kToSpace) depthToSpace(ctx.input<T>(0), in, ctx.output<T>(0), out, uint32_t(block));
    else spaceToDepth(ctx.input<T>(0), in, ctx.output<T>(0), out, uint32_t(block));
    return kOk;
  });
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

Status readBlockShape(OpContext& ctx, uint32_t i, int32_t block[2]) {
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

Status validateBatchToSpace(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(2, 3));
  NN_RETURN_IF_ERROR(validateImageInput(c, kFeatureLevel2));
  NN_RETURN_IF_ERROR(checkConstantBlock(c, 1));
  return checkOptionalBool(c, 2, kFeatureLevel3);
}

Status prepareBatchToSpace(OpContext& ctx) {
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

Status executeBatchToSpace(OpContext& ctx) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  int32_t block[2];
  bool nchw;
  NN_RETURN_IF_ERROR(readBlockShape(ctx, 1, block));
  NN_RETURN_IF_ERROR(readLayout(ctx, 2, &nchw));
  const Image4 in = image4(ctx.inputShape(0).dims, nchw);
  const Image4 out = image4(ctx.outputShape(0).dims, nchw);
  const uint32_t bh = block[0], bw = block[1];
  return withElementType(elementSize(ctx.inputType(0)), [&](auto tag) {
    using T = decltype(tag);
    const T* src = ctx.input<T>(0);
    T* dst = ctx.output<T>(0);
    // Input batch (oy*bw + ox)*outN + b holds output pixels (y*bh + oy, x*bw + ox).
    for (uint32_t ib = 0; ib < in.n; ++ib) {
      const uint32_t b = ib % out.n, off = ib / out.n;
      const uint32_t oy = off / bw, ox = off % bw;
      for (uint32_t y = 0; y < in.h; ++y)
        for (uint32_t x = 0; x < in.w; ++x) {
          const T* s = src + ib * in.sn + y * in.sh + x * in.sw;
          T* d = dst + b * out.sn + (y * bh + oy) * out.sh + (x * bw + ox) * out.sw;
          copyChannels(d, out.sc, s, in.sc, in.c);
        }
    }
    return kOk;
  });
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

Status readSpaceToBatchParams(OpContext& ctx, int32_t block[2], int32_t pads[4], bool* nchw) {
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

Status prepareSpaceToBatch(OpContext& ctx) {
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

Status executeSpaceToBatch(OpContext& ctx) {
  const Shape& outShape = ctx.outputShape(0);
  if (outShape.count() == 0) return kOk;
  int32_t block[2], pads[4];
  bool nchw;
  NN_RETURN_IF_ERROR(readSpaceToBatchParams(ctx, block, pads, &nchw));
  const Image4 in = image4(ctx.inputShape(0).dims, nchw);
  const Image4 out = image4(outShape.dims, nchw);
  const uint8_t zero = zeroByte(outShape);
  const uint32_t bw = block[1], bh = block[0];
  return withElementType(elementSize(ctx.inputType(0)), [&](auto tag) {
    using T = decltype(tag);
    T fillValue;
    memset(&fillValue, zero, sizeof(T));  // zero bits, or the 1-byte zero point
    const T* src = ctx.input<T>(0);
    T* dst = ctx.output<T>(0);
    for (uint32_t ob = 0; ob < out.n; ++ob) {
      const uint32_t b = ob % in.n, off = ob / in.n;
      const int64_t oy = off / bw, ox = off % bw;
      for (uint32_t y = 0; y < out.h; ++y) {
        const int64_t sy = int64_t(y) * bh + oy - pads[0];
        for (uint32_t x = 0; x < out.w; ++x) {
          const int64_t sx = int64_t(x) * bw + ox - pads[2];
          T* d = dst + ob * out.sn + y * out.sh + x * out.sw;
          if (sy < 0 || sy >= in.h || sx < 0 || sx >= in.w || in.n == 0) {
            fillChannels(d, out.sc, fillValue, out.c);
          } else {
            const T* s = src + b * in.sn + size_t(sy) * in.sh + size_t(sx) * in.sw;
            copyChannels(d, out.sc, s, in.sc, in.c);
          }
        }
      }
    }
    return kOk;
  });
}

}  // namespace

NN_REGISTER_OPERATION(DEPTH_TO_SPACE, validateBlockScalarOp, prepareDepthToSpace,
                      executeDepthSpace<true>);
NN_REGISTER_OPERATION(SPACE_TO_DEPTH, validateBlockScalarOp, prepareSpaceToDepth,
                      executeDepthSpace<false>);
NN_REGISTER_OPERATION(BATCH_TO_SPACE_ND, validateBatchToSpace, prepareBatchToSpace,
                      executeBatchToSpace);
NN_REGISTER_OPERATION(SPACE_TO_BATCH_ND, validateSpaceToBatch, prepareSpaceToBatch,
                      executeSpaceToBatch);

}  // namespace nn
