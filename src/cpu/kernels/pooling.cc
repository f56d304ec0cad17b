// AVERAGE_POOL_2D, MAX_POOL_2D and L2_POOL_2D on the CPU.
//
// One NHWC kernel per element type walks output rows (batch * out_height, split across the
// thread pool) with the channel loop innermost, so the accumulation over the window is a
// contiguous, vectorizable loop. NCHW inputs are transposed to NHWC and back; float16 is
// computed in float32. Windows are clipped to the input: the average and L2 divide by the number
// of input elements actually covered, as the NNAPI reference does.
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "cpu/kernel.h"
#include "cpu/kernels/eltwise_half.h"
#include "cpu/kernels/vectorize.h"
#include "cpu/thread_pool.h"
#include "spec/ops/common.h"
#include "spec/ops/pooling.h"

namespace nn {
namespace {

using namespace pooling;

enum class PoolKind { kAverage, kMax, kL2 };

template <typename T>
void nchwToNhwc(const T* src, const PoolGeometry& g, uint32_t h, uint32_t w, T* dst) {
  const size_t plane = static_cast<size_t>(h) * w;
  for (uint32_t b = 0; b < g.batches; ++b) {
    const T* s = src + static_cast<size_t>(b) * g.channels * plane;
    T* d = dst + static_cast<size_t>(b) * g.channels * plane;
    for (uint32_t c = 0; c < g.channels; ++c)
      for (size_t i = 0; i < plane; ++i) d[i * g.channels + c] = s[c * plane + i];
  }
}

template <typename T>
void nhwcToNchw(const T* src, const PoolGeometry& g, uint32_t h, uint32_t w, T* dst) {
  const size_t plane = static_cast<size_t>(h) * w;
  for (uint32_t b = 0; b < g.batches; ++b) {
    const T* s = src + static_cast<size_t>(b) * g.channels * plane;
    T* d = dst + static_cast<size_t>(b) * g.channels * plane;
    for (size_t i = 0; i < plane; ++i)
      for (uint32_t c = 0; c < g.channels; ++c) d[c * plane + i] = s[i * g.channels + c];
  }
}

// Output activation bounds in the domain of the accumulator.
template <typename Acc>
struct Bounds {
  Acc lo, hi;
  Acc zero = 0;  // the representation of 0.0
};

// Pools output rows [rowBegin, rowEnd) of the flattened (batch, out_y) range. T is the element
// type; Acc is float for float data and int32 for quantized data.
template <PoolKind K, typename T, typename Acc>
void poolRows(const T* in, T* out, const PoolGeometry& g, const PoolParams& p, Bounds<Acc> bounds,
              size_t rowBegin, size_t rowEnd) {
  const uint32_t C = g.channels;
  // Channels are accumulated in blocks held on the stack, so no call allocates.
  constexpr uint32_t kChannelBlock = 256;
  Acc acc[kChannelBlock];
  for (size_t row = rowBegin; row < rowEnd; ++row) {
    const uint32_t b = static_cast<uint32_t>(row / g.outH);
    const uint32_t oy = static_cast<uint32_t>(row % g.outH);
    const int64_t yStart = static_cast<int64_t>(oy) * p.strideH - p.padTop;
    const int64_t y0 = std::max<int64_t>(0, yStart);
    const int64_t y1 = std::min<int64_t>(g.inH, yStart + p.filterH);
    T* outRow = out + row * g.outW * C;
    for (uint32_t ox = 0; ox < g.outW; ++ox) {
      const int64_t xStart = static_cast<int64_t>(ox) * p.strideW - p.padLeft;
      const int64_t x0 = std::max<int64_t>(0, xStart);
      const int64_t x1 = std::min<int64_t>(g.inW, xStart + p.filterW);
      T* o = outRow + static_cast<size_t>(ox) * C;
      const int64_t count = std::max<int64_t>(0, y1 - y0) * std::max<int64_t>(0, x1 - x0);
      if (count == 0) {
        // A window lying entirely in the padding covers no element: the result is zero
        // (the zero point for quantized data), clamped to the activation range.
        for (uint32_t c = 0; c < C; ++c)
          o[c] = static_cast<T>(std::min(bounds.hi, std::max(bounds.lo, bounds.zero)));
        continue;
      }
      const Acc init = K == PoolKind::kMax ? std::numeric_limits<Acc>::lowest() : Acc(0);
      if constexpr (K == PoolKind::kMax) {
        // A full 2x2 window (BlazeFace's stride-2 pools): the four pixels in one pass per
        // channel, in the general loop's order (row by row), without the accumulator block:
        // face_detection_short_range's 64x64x28 pool took 23 us on the general loop.
        if (y1 - y0 == 2 && x1 - x0 == 2) {
          const T* p00 = in + ((static_cast<size_t>(b) * g.inH + y0) * g.inW + x0) * C;
          const T* p01 = p00 + C;
          const T* p10 = p00 + static_cast<size_t>(g.inW) * C;
          const T* p11 = p10 + C;
          for (uint32_t c = 0; c < C; ++c) {
            Acc v = std::max(init, static_cast<Acc>(p00[c]));
            v = std::max(v, static_cast<Acc>(p01[c]));
            v = std::max(v, static_cast<Acc>(p10[c]));
            v = std::max(v, static_cast<Acc>(p11[c]));
            o[c] = static_cast<T>(std::min(bounds.hi, std::max(bounds.lo, v)));
          }
          continue;
        }
      }
      for (uint32_t c0 = 0; c0 < C; c0 += kChannelBlock) {
        const uint32_t cn = std::min(kChannelBlock, C - c0);
        T* oBlock = o + c0;
        std::fill(acc, acc + cn, init);
        Acc* a = acc;
        for (int64_t y = y0; y < y1; ++y) {
          const T* inRow = in + ((static_cast<size_t>(b) * g.inH + y) * g.inW) * C;
          for (int64_t x = x0; x < x1; ++x) {
            const T* px = inRow + static_cast<size_t>(x) * C + c0;
            if constexpr (K == PoolKind::kMax) {
              for (uint32_t c = 0; c < cn; ++c) a[c] = std::max(a[c], static_cast<Acc>(px[c]));
            } else if constexpr (K == PoolKind::kL2) {
              for (uint32_t c = 0; c < cn; ++c) a[c] += static_cast<Acc>(px[c]) * px[c];
            } else {
              for (uint32_t c = 0; c < cn; ++c) a[c] += static_cast<Acc>(px[c]);
            }
          }
        }
        if constexpr (std::is_same<Acc, float>::value) {
          const float n = static_cast<float>(count);
          for (uint32_t c = 0; c < cn; ++c) {
            float v = a[c];
            if constexpr (K == PoolKind::kAverage) v = v / n;
            if constexpr (K == PoolKind::kL2) v = std::sqrt(v / n);
            oBlock[c] = static_cast<T>(std::min(bounds.hi, std::max(bounds.lo, v)));
          }
        } else {
          const int32_t n = static_cast<int32_t>(count);
          if constexpr (K == PoolKind::kAverage) {
            // Rounded division, half away from zero (the reference's integer rounding):
            // q = (|v| + n/2) / n with the sign of v. Integer division does not vectorize, so
            // up to 2^20 elements per window it is done as floor((m + 0.25) / n) in double:
            // the 0.25/n margin exceeds the product's rounding error (m < 2^29), and stays below
            // the 1/n gap to the next integer, so the result is exact.
            if (n <= (1 << 20)) {
              const double inv = 1.0 / n;
              const int32_t half = n / 2;
              for (uint32_t c = 0; c < cn; ++c) {
                const int32_t v = a[c];
                const int32_t m = (v >= 0 ? v : -v) + half;
                const int32_t q = static_cast<int32_t>((m + 0.25) * inv);
                const int32_t r = v >= 0 ? q : -q;
                oBlock[c] = static_cast<T>(std::min(bounds.hi, std::max(bounds.lo, r)));
              }
            } else {
              for (uint32_t c = 0; c < cn; ++c) {
                const int32_t v = a[c];
                const int32_t r = v >= 0 ? (v + n / 2) / n : (v - n / 2) / n;
                oBlock[c] = static_cast<T>(std::min(bounds.hi, std::max(bounds.lo, r)));
              }
            }
          } else {
            for (uint32_t c = 0; c < cn; ++c)
              oBlock[c] = static_cast<T>(std::min(bounds.hi, std::max(bounds.lo, a[c])));
          }
        }
      }
    }
  }
}

template <PoolKind K, typename T, typename Acc>
void poolNhwc(const T* in, T* out, const PoolGeometry& g, const PoolParams& p, Bounds<Acc> bounds,
              ThreadPool* pool) {
  const size_t rows = static_cast<size_t>(g.batches) * g.outH;
  const size_t workPerRow = static_cast<size_t>(g.outW) * g.channels * p.filterW * p.filterH;
  // Waking the pool costs more than pooling a small tensor (~2M window reads take ~0.1 ms on
  // one core), so only larger inputs are split, in chunks of at least ~256K reads.
  auto work = [&](size_t begin, size_t end) {
    poolRows<K, T, Acc>(in, out, g, p, bounds, begin, end);
  };
  if (pool == nullptr) {  // the reference device: plain baseline loop
    work(0, rows);
    return;
  }
  // The fast device runs the rows in an ISA-specific clone.
  auto run = [&](size_t begin, size_t end) { vectorize::runVectorized(work, begin, end); };
  // Also split from 16K input or output elements (as the elementwise and depthwise kernels):
  // with 2 threads the operations around a pool split their rows, and a pool kept on one
  // thread first pulled the other thread's half of its input from that core's cache
  // (face_detection_short_range 64x64x28 2x2: as slow on 2 threads as on 1).
  const size_t outRowElems = static_cast<size_t>(g.outW) * g.channels;
  const size_t inElems = static_cast<size_t>(g.batches) * g.inH * g.inW * g.channels;
  const bool large = rows * workPerRow >= (1u << 21) ||
                     std::max(rows * outRowElems, inElems) >= 16384;
  if (pool->numThreads() <= 1 || !large) {
    run(0, rows);
    return;
  }
  const size_t grain = std::max<size_t>(
      1, std::min((1u << 18) / std::max<size_t>(1, workPerRow),
                  size_t{4096} / std::max<size_t>(1, outRowElems)));
  pool->parallelFor(rows, grain, run);
}

// Runs the NHWC kernel on either layout.
template <PoolKind K, typename T, typename Acc>
void poolAnyLayout(const T* in, T* out, const PoolGeometry& g, const PoolParams& p,
                   Bounds<Acc> bounds, ThreadPool* pool) {
  if (!p.nchw) {
    poolNhwc<K, T, Acc>(in, out, g, p, bounds, pool);
    return;
  }
  std::vector<T> tin(static_cast<size_t>(g.batches) * g.inH * g.inW * g.channels);
  std::vector<T> tout(static_cast<size_t>(g.batches) * g.outH * g.outW * g.channels);
  nchwToNhwc(in, g, g.inH, g.inW, tin.data());
  poolNhwc<K, T, Acc>(tin.data(), tout.data(), g, p, bounds, pool);
  nhwcToNchw(tout.data(), g, g.outH, g.outW, out);
}

// `pool` is null on the reference device: one thread, rows in order (same arithmetic). `fast`:
// the fast device (float16 max pooling on its own kernel where available).
template <PoolKind K>
Status runPool(OpContext& ctx, ThreadPool* pool, bool fast) {
  PoolParams p;
  PoolGeometry g;
  NN_RETURN_IF_ERROR(readPoolParams(ctx, &p, &g));
  const Shape& outShape = ctx.outputShape(0);
  if (ctx.inputShape(0).count() == 0 || outShape.count() == 0) return kOk;

  switch (ctx.inputType(0)) {
    case OperandType::TENSOR_FLOAT32: {
      Bounds<float> b;
      activationRangeFloat(p.activation, &b.lo, &b.hi);
      poolAnyLayout<K, float, float>(ctx.input<float>(0), ctx.output<float>(0), g, p, b, pool);
      return kOk;
    }
    case OperandType::TENSOR_FLOAT16: {
      if (K == PoolKind::kMax && fast && half_ops::maxPoolTakes(ctx, p)) {
        half_ops::maxPool(ctx, p, g);
        return kOk;
      }
      Bounds<float> b;
      activationRangeFloat(p.activation, &b.lo, &b.hi);
      const size_t inCount = static_cast<size_t>(ctx.inputShape(0).count());
      const size_t outCount = static_cast<size_t>(outShape.count());
      std::vector<float> in(inCount), out(outCount);
      const Half* h = ctx.input<Half>(0);
      for (size_t i = 0; i < inCount; ++i) in[i] = static_cast<float>(h[i]);
      poolAnyLayout<K, float, float>(in.data(), out.data(), g, p, b, pool);
      Half* o = ctx.output<Half>(0);
      for (size_t i = 0; i < outCount; ++i) o[i] = static_cast<Half>(out[i]);
      return kOk;
    }
    case OperandType::TENSOR_QUANT8_ASYMM:
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED: {
      if constexpr (K == PoolKind::kL2) {
        return ctx.fail("L2_POOL_2D has no quantized kernel");
      } else {
        Bounds<int32_t> b;
        activationRangeQuantized(p.activation, outShape, &b.lo, &b.hi);
        b.zero = outShape.zeroPoint;
        if (ctx.inputType(0) == OperandType::TENSOR_QUANT8_ASYMM)
          poolAnyLayout<K, uint8_t, int32_t>(ctx.input<uint8_t>(0), ctx.output<uint8_t>(0), g, p,
                                             b, pool);
        else
          poolAnyLayout<K, int8_t, int32_t>(ctx.input<int8_t>(0), ctx.output<int8_t>(0), g, p, b,
                                            pool);
        return kOk;
      }
    }
    default:
      return ctx.fail("unsupported input type %s", toString(ctx.inputType(0)));
  }
}

template <PoolKind K>
Status executePool(OpContext& ctx) {
  return runPool<K>(ctx, ctx.threadPool(), true);
}
template <PoolKind K>
Status executePoolReference(OpContext& ctx) {
  return runPool<K>(ctx, nullptr, false);
}

}  // namespace

NN_DEFINE_CPU_KERNEL_FULL(AVERAGE_POOL_2D, executePool<PoolKind::kAverage>,
                          executePoolReference<PoolKind::kAverage>, nullptr, nullptr);
NN_DEFINE_CPU_KERNEL_FULL(MAX_POOL_2D, executePool<PoolKind::kMax>,
                          executePoolReference<PoolKind::kMax>, nullptr, nullptr);
NN_DEFINE_CPU_KERNEL_FULL(L2_POOL_2D, executePool<PoolKind::kL2>,
                          executePoolReference<PoolKind::kL2>, nullptr, nullptr);

}  // namespace nn
