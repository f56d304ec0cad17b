// AVERAGE_POOL_2D, MAX_POOL_2D and L2_POOL_2D.
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

#include "cpu/thread_pool.h"
#include "spec/ops/common.h"
#include "ops/operation.h"

namespace nn {
namespace {

enum class PoolKind { kAverage, kMax, kL2 };

struct PoolParams {
  int32_t padLeft = 0, padRight = 0, padTop = 0, padBottom = 0;
  int32_t strideW = 1, strideH = 1, filterW = 1, filterH = 1;
  int32_t activation = 0;
  bool nchw = false;
};

struct Geometry {
  uint32_t batches = 0, inH = 0, inW = 0, channels = 0, outH = 0, outW = 0;
};

bool isExplicitPadding(uint32_t numInputs) { return numInputs >= 10; }
bool hasLayoutInput(uint32_t numInputs) { return numInputs == 8 || numInputs == 11; }

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

// ---- parameters and shapes --------------------------------------------------------------

// Reads the scalar parameters and derives the geometry. Returns kDeferred when a scalar is
// not known yet (non-constant at compilation).
Status readParams(OpContext& ctx, PoolParams* p, Geometry* g) {
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

Status preparePool(OpContext& ctx) {
  PoolParams p;
  Geometry g;
  const Status s = readParams(ctx, &p, &g);
  if (s != kOk) return s;
  if (p.nchw) return ctx.setOutputDims(0, {g.batches, g.channels, g.outH, g.outW});
  return ctx.setOutputDims(0, {g.batches, g.outH, g.outW, g.channels});
}

// ---- kernels ----------------------------------------------------------------------------

template <typename T>
void nchwToNhwc(const T* src, const Geometry& g, uint32_t h, uint32_t w, T* dst) {
  const size_t plane = static_cast<size_t>(h) * w;
  for (uint32_t b = 0; b < g.batches; ++b) {
    const T* s = src + static_cast<size_t>(b) * g.channels * plane;
    T* d = dst + static_cast<size_t>(b) * g.channels * plane;
    for (uint32_t c = 0; c < g.channels; ++c)
      for (size_t i = 0; i < plane; ++i) d[i * g.channels + c] = s[c * plane + i];
  }
}

template <typename T>
void nhwcToNchw(const T* src, const Geometry& g, uint32_t h, uint32_t w, T* dst) {
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
void poolRows(const T* in, T* out, const Geometry& g, const PoolParams& p, Bounds<Acc> bounds,
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
void poolNhwc(const T* in, T* out, const Geometry& g, const PoolParams& p, Bounds<Acc> bounds,
              ThreadPool* pool) {
  const size_t rows = static_cast<size_t>(g.batches) * g.outH;
  const size_t workPerRow = static_cast<size_t>(g.outW) * g.channels * p.filterW * p.filterH;
  // Waking the pool costs more than pooling a small tensor (~2M window reads take ~0.1 ms on
  // one core), so only larger inputs are split, in chunks of at least ~256K reads.
  if (pool == nullptr || pool->numThreads() <= 1 || rows * workPerRow < (1u << 21)) {
    poolRows<K, T, Acc>(in, out, g, p, bounds, 0, rows);
    return;
  }
  const size_t grain = std::max<size_t>(1, (1u << 18) / std::max<size_t>(1, workPerRow));
  pool->parallelFor(rows, grain, [&](size_t begin, size_t end) {
    poolRows<K, T, Acc>(in, out, g, p, bounds, begin, end);
  });
}

// Runs the NHWC kernel on either layout.
template <PoolKind K, typename T, typename Acc>
void poolAnyLayout(const T* in, T* out, const Geometry& g, const PoolParams& p,
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

template <PoolKind K>
Status executePool(OpContext& ctx) {
  PoolParams p;
  Geometry g;
  NN_RETURN_IF_ERROR(readParams(ctx, &p, &g));
  const Shape& outShape = ctx.outputShape(0);
  if (ctx.inputShape(0).count() == 0 || outShape.count() == 0) return kOk;
  ThreadPool* pool = ctx.useReferenceKernels() ? nullptr : ctx.threadPool();

  switch (ctx.inputType(0)) {
    case OperandType::TENSOR_FLOAT32: {
      Bounds<float> b;
      activationRangeFloat(p.activation, &b.lo, &b.hi);
      poolAnyLayout<K, float, float>(ctx.input<float>(0), ctx.output<float>(0), g, p, b, pool);
      return kOk;
    }
    case OperandType::TENSOR_FLOAT16: {
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

}  // namespace

NN_REGISTER_OPERATION(AVERAGE_POOL_2D, validateAveragePool, preparePool,
                      executePool<PoolKind::kAverage>);
NN_REGISTER_OPERATION(MAX_POOL_2D, validateMaxPool, preparePool, executePool<PoolKind::kMax>);
NN_REGISTER_OPERATION(L2_POOL_2D, validateL2Pool, preparePool, executePool<PoolKind::kL2>);

}  // namespace nn
