// BATCH_TO_SPACE_ND, SPACE_TO_BATCH_ND, DEPTH_TO_SPACE and SPACE_TO_DEPTH on the CPU. Each
// output pixel takes the channel vector of one input pixel (or the logical zero for
// padding), so in NHWC the kernels move whole channel runs with memcpy; NCHW walks the
// channel stride.
#include <cstring>

#include "cpu/kernel.h"
#include "spec/ops/shape_util.h"
#include "spec/ops/space_batch.h"

namespace nn {
namespace {

using namespace shape_ops;
using namespace space_batch;

// ---- DEPTH_TO_SPACE / SPACE_TO_DEPTH ----------------------------------------------------

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

NN_DEFINE_CPU_KERNEL(DEPTH_TO_SPACE, executeDepthSpace<true>);
NN_DEFINE_CPU_KERNEL(SPACE_TO_DEPTH, executeDepthSpace<false>);
NN_DEFINE_CPU_KERNEL(BATCH_TO_SPACE_ND, executeBatchToSpace);
NN_DEFINE_CPU_KERNEL(SPACE_TO_BATCH_ND, executeSpaceToBatch);

}  // namespace nn
