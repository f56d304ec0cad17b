// L2_NORMALIZATION and LOCAL_RESPONSE_NORMALIZATION kernels.
// Quantized L2 normalization uses the reference's fixed-point 1/sqrt (Newton-Raphson in Q3)
// and writes to the fixed 1/128 output grid. On the fast device, float L2 multiplies by the
// reciprocal norm and LRN keeps a sliding window of squares; the reference device divides and
// sums each window afresh.
#include <cmath>
#include <type_traits>
#include <vector>

#include "cpu/kernel.h"
#include "cpu/kernels/elementwise.h"
#include "cpu/kernels/fixed_point.h"
#include "spec/ops/common.h"

namespace nn {
namespace {

using elementwise::AxisSplit;
using elementwise::Path;

// The resolved axis; validation and shape inference have checked it.
Status readAxis(const OpContext& ctx, uint32_t axisInput, uint32_t* axis) {
  bool known = false;
  NN_RETURN_IF_ERROR(elementwise::readOptionalAxis(ctx, axisInput, axis, &known));
  if (!known) return ctx.fail("input %u: the axis value is not available", axisInput);
  return kOk;
}

// Runs fn(base, n, stride) for every 1-D slice along the axis, in parallel when large.
template <typename Fn>
void forEachSlice(const OpContext& ctx, Path path, const AxisSplit& s, Fn&& fn) {
  const size_t rows = s.outer * s.inner;
  elementwise::parallelRange(ctx, path, rows * s.axis, [&](size_t b, size_t e) {
    const size_t rb = (b + s.axis - 1) / s.axis, re = (e + s.axis - 1) / s.axis;
    for (size_t r = rb; r < re; ++r) {
      const size_t o = r / s.inner, i = r % s.inner;
      fn(o * s.axis * s.inner + i, s.axis, s.inner);
    }
  });
}

// Float kernels run on float32 buffers; float16 is converted around them.
template <typename Fn>
Status runFloat(OpContext& ctx, Fn&& kernel) {
  if (ctx.inputType(0) == OperandType::TENSOR_FLOAT32) {
    kernel(ctx.input<float>(0), ctx.output<float>(0));
    return kOk;
  }
  const size_t n = ctx.inputShape(0).count();
  std::vector<float> in(n), out(n);
  const Half* src = ctx.input<Half>(0);
  for (size_t i = 0; i < n; ++i) in[i] = static_cast<float>(src[i]);
  kernel(in.data(), out.data());
  Half* dst = ctx.output<Half>(0);
  for (size_t i = 0; i < n; ++i) dst[i] = static_cast<Half>(out[i]);
  return kOk;
}

// ---- L2_NORMALIZATION ------------------------------------------------------------------

void l2NormFloat(const OpContext& ctx, Path path, const float* in, float* out,
                 const AxisSplit& s) {
  const bool ref = path == Path::kReference;
  forEachSlice(ctx, path, s, [&](size_t base, size_t n, size_t stride) {
    const float* x = in + base;
    float* y = out + base;
    float sum = 0.f;
    for (size_t i = 0; i < n; ++i) sum += x[i * stride] * x[i * stride];
    // All zeros normalize to zeros (defined since NNAPI 1.3; undefined before).
    if (sum == 0.f) {
      for (size_t i = 0; i < n; ++i) y[i * stride] = 0.f;
      return;
    }
    const float norm = std::sqrt(sum);
    if (ref || stride != 1) {
      for (size_t i = 0; i < n; ++i) y[i * stride] = x[i * stride] / norm;
    } else {
      const float inv = 1.f / norm;
      for (size_t i = 0; i < n; ++i) y[i] = x[i] * inv;
    }
  });
}

template <typename T>
void l2NormQuant(const OpContext& ctx, Path path, const T* in, T* out, const AxisSplit& s) {
  const int32_t zp = ctx.inputShape(0).zeroPoint;
  constexpr int32_t kOffset = std::is_same<T, int8_t>::value ? -128 : 0;
  forEachSlice(ctx, path, s, [&](size_t base, size_t n, size_t stride) {
    const T* x = in + base;
    T* y = out + base;
    int32_t sum = 0;
    for (size_t i = 0; i < n; ++i) {
      const int32_t d = static_cast<int32_t>(x[i * stride]) - zp;
      sum += d * d;
    }
    int32_t multiplier;
    int shift;
    fp::invSqrtQuantizedMultiplier(sum, -1, &multiplier, &shift);
    for (size_t i = 0; i < n; ++i) {
      const int32_t d = static_cast<int32_t>(x[i * stride]) - zp;
      const int32_t v = multiplyByQuantizedMultiplier(d * 128, multiplier, shift) + 128;
      y[i * stride] = static_cast<T>(std::min(std::max(v, 0), 255) + kOffset);
    }
  });
}

Status runL2Norm(OpContext& ctx, Path path) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  uint32_t axis = 0;
  NN_RETURN_IF_ERROR(readAxis(ctx, 1, &axis));
  const AxisSplit s = elementwise::splitAtAxis(ctx.inputShape(0).dims, axis);
  switch (ctx.inputType(0)) {
    case OperandType::TENSOR_FLOAT32:
    case OperandType::TENSOR_FLOAT16:
      return runFloat(ctx,
                      [&](const float* in, float* out) { l2NormFloat(ctx, path, in, out, s); });
    case OperandType::TENSOR_QUANT8_ASYMM:
      l2NormQuant(ctx, path, ctx.input<uint8_t>(0), ctx.output<uint8_t>(0), s);
      return kOk;
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      l2NormQuant(ctx, path, ctx.input<int8_t>(0), ctx.output<int8_t>(0), s);
      return kOk;
    default:
      return ctx.fail("unsupported type %s", toString(ctx.inputType(0)));
  }
}

Status executeL2Norm(OpContext& ctx) { return runL2Norm(ctx, Path::kFast); }
Status executeL2NormReference(OpContext& ctx) { return runL2Norm(ctx, Path::kReference); }

// ---- LOCAL_RESPONSE_NORMALIZATION -------------------------------------------------------

constexpr uint32_t kRadius = 1, kBias = 2, kAlpha = 3, kBeta = 4, kLrnAxis = 5;

Status runLrn(OpContext& ctx, Path path) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  uint32_t axis = 0;
  NN_RETURN_IF_ERROR(readAxis(ctx, kLrnAxis, &axis));
  const int32_t radius = ctx.scalar<int32_t>(kRadius);
  if (radius < 0) return ctx.fail("input 1: radius must be >= 0, got %d", radius);
  const float bias = elementwise::floatScalar(ctx, kBias);
  const float alpha = elementwise::floatScalar(ctx, kAlpha);
  const float beta = elementwise::floatScalar(ctx, kBeta);
  const AxisSplit s = elementwise::splitAtAxis(ctx.inputShape(0).dims, axis);
  const bool ref = path == Path::kReference;
  return runFloat(ctx, [&](const float* in, float* out) {
    forEachSlice(ctx, path, s, [&](size_t base, size_t n, size_t stride) {
      const float* x = in + base;
      float* y = out + base;
      const int64_t r = radius;
      if (ref || n <= static_cast<size_t>(2 * r + 1)) {
        for (int64_t i = 0; i < static_cast<int64_t>(n); ++i) {
          const int64_t lo = std::max<int64_t>(0, i - r);
          const int64_t hi = std::min<int64_t>(n, i + r + 1);
          float sum = 0.f;
          for (int64_t d = lo; d < hi; ++d) sum += x[d * stride] * x[d * stride];
          y[i * stride] = x[i * stride] * std::pow(bias + alpha * sum, -beta);
        }
        return;
      }
      // Sliding window of squares in double, so the running sum does not drift.
      double window = 0.0;
      for (int64_t d = 0; d < std::min<int64_t>(n, r + 1); ++d)
        window += static_cast<double>(x[d * stride]) * x[d * stride];
      for (int64_t i = 0; i < static_cast<int64_t>(n); ++i) {
        const float sum = static_cast<float>(window);
        y[i * stride] = x[i * stride] * std::pow(bias + alpha * sum, -beta);
        const int64_t add = i + r + 1, drop = i - r;
        if (add < static_cast<int64_t>(n)) window += static_cast<double>(x[add * stride]) * x[add * stride];
        if (drop >= 0) window -= static_cast<double>(x[drop * stride]) * x[drop * stride];
      }
    });
  });
}

Status executeLrn(OpContext& ctx) { return runLrn(ctx, Path::kFast); }
Status executeLrnReference(OpContext& ctx) { return runLrn(ctx, Path::kReference); }

}  // namespace

NN_DEFINE_CPU_KERNEL_FULL(L2_NORMALIZATION, executeL2Norm, executeL2NormReference, nullptr,
                          nullptr);
NN_DEFINE_CPU_KERNEL_FULL(LOCAL_RESPONSE_NORMALIZATION, executeLrn, executeLrnReference, nullptr,
                          nullptr);

}  // namespace nn
