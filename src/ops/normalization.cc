// L2_NORMALIZATION and LOCAL_RESPONSE_NORMALIZATION along one axis (default the last).
// Quantized L2 normalization uses the reference's fixed-point 1/sqrt (Newton-Raphson in Q3)
// and writes to the fixed 1/128 output grid.
#include <cmath>
#include <type_traits>

#include "spec/ops/common.h"
#include "ops/elementwise_util.h"
#include "cpu/kernels/fixed_point.h"
#include "ops/operation.h"

namespace nn {
namespace {

using elementwise::AxisSplit;
using elementwise::parallelRange;
using elementwise::resolveAxis;
using elementwise::splitAtAxis;

bool isQuant8(OperandType t) {
  return t == OperandType::TENSOR_QUANT8_ASYMM || t == OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
}

Status checkConstantAxis(ValidationContext& c, uint32_t axisInput) {
  const Dims& dims = c.input(0).dimensions;
  int32_t axis = 0;
  uint32_t resolved = 0;
  if (!dims.empty() && c.constantScalar(axisInput, &axis) &&
      !resolveAxis(axis, static_cast<uint32_t>(dims.size()), &resolved))
    return c.fail("input %u: axis %d out of range for rank %zu", axisInput, axis, dims.size());
  return kOk;
}

// Resolves the optional axis input (default -1); at prepare time a non-constant axis may be
// unknown, reported through *known.
Status readAxis(OpContext& ctx, uint32_t axisInput, uint32_t* axis, bool* known) {
  const uint32_t rank = ctx.inputShape(0).rank();
  int32_t a = -1;
  *known = true;
  if (ctx.numInputs() > axisInput && !ctx.isOmitted(axisInput)) {
    if (!ctx.hasInputData(axisInput)) {
      *known = false;
      return kOk;
    }
    a = ctx.scalar<int32_t>(axisInput);
  }
  if (!resolveAxis(a, rank, axis))
    return ctx.fail("input %u: axis %d out of range for rank %u", axisInput, a, rank);
  return kOk;
}

// Runs fn(base, n, stride) for every 1-D slice along the axis, in parallel when large.
template <typename Fn>
void forEachSlice(const OpContext& ctx, const AxisSplit& s, Fn&& fn) {
  const size_t rows = s.outer * s.inner;
  parallelRange(ctx, rows * s.axis, [&](size_t b, size_t e) {
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

Status validateL2Norm(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(1, 2));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  const OperandType t = c.inputType(0);
  switch (t) {
    case OperandType::TENSOR_FLOAT32:
      break;
    case OperandType::TENSOR_FLOAT16:
    case OperandType::TENSOR_QUANT8_ASYMM:
      c.requireFeatureLevel(kFeatureLevel3);
      break;
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      c.requireFeatureLevel(kFeatureLevel4);
      break;
    default:
      return c.fail("input 0: unsupported type %s", toString(t));
  }
  NN_RETURN_IF_ERROR(c.checkOutputTypes({t}));
  NN_RETURN_IF_ERROR(c.checkInputRankAtMost(0, 4));
  if (c.numInputs() == 2) {
    c.requireFeatureLevel(kFeatureLevel3);
    NN_RETURN_IF_ERROR(c.checkInputType(1, OperandType::INT32));
    NN_RETURN_IF_ERROR(checkConstantAxis(c, 1));
  } else if (!c.input(0).dimensions.empty() && c.input(0).dimensions.size() != 4) {
    // Ranks other than 4 arrived with NNAPI 1.2.
    c.requireFeatureLevel(kFeatureLevel3);
  }
  if (isQuant8(t)) {
    const Operand& out = c.output(0);
    const int32_t zp = t == OperandType::TENSOR_QUANT8_ASYMM ? 128 : 0;
    if (out.scale != 1.f / 128 || out.zeroPoint != zp)
      return c.fail("output: scale must be 1/128 and zeroPoint %d, got %g and %d", zp, out.scale,
                    out.zeroPoint);
  }
  return kOk;
}

Status prepareL2Norm(OpContext& ctx) {
  const Shape& in = ctx.inputShape(0);
  if (in.rank() > 4) return ctx.fail("input 0: rank must be <= 4, got %u", in.rank());
  uint32_t axis;
  bool known;
  NN_RETURN_IF_ERROR(readAxis(ctx, 1, &axis, &known));
  return ctx.setOutputDims(0, in.dims);
}

void l2NormFloat(const OpContext& ctx, const float* in, float* out, const AxisSplit& s) {
  const bool ref = ctx.useReferenceKernels();
  forEachSlice(ctx, s, [&](size_t base, size_t n, size_t stride) {
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
void l2NormQuant(const OpContext& ctx, const T* in, T* out, const AxisSplit& s) {
  const int32_t zp = ctx.inputShape(0).zeroPoint;
  constexpr int32_t kOffset = std::is_same<T, int8_t>::value ? -128 : 0;
  forEachSlice(ctx, s, [&](size_t base, size_t n, size_t stride) {
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

Status executeL2Norm(OpContext& ctx) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  uint32_t axis;
  bool known;
  NN_RETURN_IF_ERROR(readAxis(ctx, 1, &axis, &known));
  const AxisSplit s = splitAtAxis(ctx.inputShape(0).dims, axis);
  switch (ctx.inputType(0)) {
    case OperandType::TENSOR_FLOAT32:
    case OperandType::TENSOR_FLOAT16:
      return runFloat(ctx, [&](const float* in, float* out) { l2NormFloat(ctx, in, out, s); });
    case OperandType::TENSOR_QUANT8_ASYMM:
      l2NormQuant(ctx, ctx.input<uint8_t>(0), ctx.output<uint8_t>(0), s);
      return kOk;
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      l2NormQuant(ctx, ctx.input<int8_t>(0), ctx.output<int8_t>(0), s);
      return kOk;
    default:
      return ctx.fail("unsupported type %s", toString(ctx.inputType(0)));
  }
}

// ---- LOCAL_RESPONSE_NORMALIZATION -------------------------------------------------------

constexpr uint32_t kRadius = 1, kBias = 2, kAlpha = 3, kBeta = 4, kLrnAxis = 5;

Status validateLrn(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(5, 6));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  const OperandType t = c.inputType(0);
  OperandType scalarType;
  switch (t) {
    case OperandType::TENSOR_FLOAT32:
      scalarType = OperandType::FLOAT32;
      break;
    case OperandType::TENSOR_FLOAT16:
      c.requireFeatureLevel(kFeatureLevel3);
      scalarType = OperandType::FLOAT16;
      break;
    default:
      return c.fail("input 0: unsupported type %s (expected TENSOR_FLOAT32 or TENSOR_FLOAT16)",
                    toString(t));
  }
  NN_RETURN_IF_ERROR(c.checkInputTypes({t, OperandType::INT32, scalarType, scalarType, scalarType}));
  NN_RETURN_IF_ERROR(c.checkOutputTypes({t}));
  NN_RETURN_IF_ERROR(c.checkInputRankAtMost(0, 4));
  if (c.numInputs() == 6) {
    c.requireFeatureLevel(kFeatureLevel3);
    NN_RETURN_IF_ERROR(c.checkInputType(kLrnAxis, OperandType::INT32));
    NN_RETURN_IF_ERROR(checkConstantAxis(c, kLrnAxis));
  } else if (!c.input(0).dimensions.empty() && c.input(0).dimensions.size() != 4) {
    c.requireFeatureLevel(kFeatureLevel3);
  }
  int32_t radius = 0;
  if (c.constantScalar(kRadius, &radius) && radius < 0)
    return c.fail("input 1: radius must be >= 0, got %d", radius);
  if (scalarType == OperandType::FLOAT32) {
    float bias = 1.f;
    if (c.constantScalar(kBias, &bias) && bias == 0.f) return c.fail("input 2: bias must not be 0");
  } else {
    Half bias = 1;
    if (c.constantScalar(kBias, &bias) && static_cast<float>(bias) == 0.f)
      return c.fail("input 2: bias must not be 0");
  }
  return kOk;
}

float readScalarFloat(const OpContext& ctx, uint32_t i) {
  if (ctx.inputType(0) == OperandType::TENSOR_FLOAT16)
    return static_cast<float>(ctx.scalar<Half>(i));
  return ctx.scalar<float>(i);
}

Status prepareLrn(OpContext& ctx) {
  const Shape& in = ctx.inputShape(0);
  if (in.rank() > 4) return ctx.fail("input 0: rank must be <= 4, got %u", in.rank());
  if (ctx.hasInputData(kRadius) && ctx.scalar<int32_t>(kRadius) < 0)
    return ctx.fail("input 1: radius must be >= 0, got %d", ctx.scalar<int32_t>(kRadius));
  uint32_t axis;
  bool known;
  NN_RETURN_IF_ERROR(readAxis(ctx, kLrnAxis, &axis, &known));
  return ctx.setOutputDims(0, in.dims);
}

Status executeLrn(OpContext& ctx) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  uint32_t axis;
  bool known;
  NN_RETURN_IF_ERROR(readAxis(ctx, kLrnAxis, &axis, &known));
  const int32_t radius = ctx.scalar<int32_t>(kRadius);
  if (radius < 0) return ctx.fail("input 1: radius must be >= 0, got %d", radius);
  const float bias = readScalarFloat(ctx, kBias);
  const float alpha = readScalarFloat(ctx, kAlpha);
  const float beta = readScalarFloat(ctx, kBeta);
  const AxisSplit s = splitAtAxis(ctx.inputShape(0).dims, axis);
  const bool ref = ctx.useReferenceKernels();
  return runFloat(ctx, [&](const float* in, float* out) {
    forEachSlice(ctx, s, [&](size_t base, size_t n, size_t stride) {
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

}  // namespace

NN_REGISTER_OPERATION(L2_NORMALIZATION, validateL2Norm, prepareL2Norm, executeL2Norm);
NN_REGISTER_OPERATION(LOCAL_RESPONSE_NORMALIZATION, validateLrn, prepareLrn, executeLrn);

}  // namespace nn

namespace nn {
NN_OPTIONAL_INPUTS(L2_NORMALIZATION, {1});            // axis: defaults to the last one
NN_OPTIONAL_INPUTS(LOCAL_RESPONSE_NORMALIZATION, {5});  // axis: defaults to the last one
}  // namespace nn
