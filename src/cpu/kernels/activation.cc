// RELU, RELU1, RELU6, LOGISTIC, TANH, FLOOR kernels.
// Quantized RELU* clamp in the quantized domain; quantized LOGISTIC/TANH rescale the input to
// Q4.27 and evaluate the gemmlowp fixed-point logistic/tanh (cpu/kernels/fixed_point.h),
// exactly as the NNAPI reference does. Float LOGISTIC/TANH use the vectorizable exp on the
// fast device and the C library on the reference device.
#include <cmath>
#include <type_traits>

#include "cpu/kernel.h"
#include "cpu/kernels/elementwise.h"
#include "cpu/kernels/fixed_point.h"
#include "spec/ops/common.h"

namespace nn {
namespace {

using elementwise::parallelRange;
using elementwise::Path;
using elementwise::vexp;

// ---- float kernels (T = float or Half; arithmetic in float) ----------------------------

template <typename T, typename F>
void unaryFloat(const OpContext& ctx, Path path, const F& f) {
  const T* in = ctx.input<T>(0);
  T* out = ctx.output<T>(0);
  parallelRange(ctx, path, ctx.inputShape(0).count(), [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) out[i] = static_cast<T>(f(static_cast<float>(in[i])));
  });
}

template <typename T>
Status executeFloat(OpContext& ctx, Path path) {
  const bool ref = path == Path::kReference;
  switch (ctx.type()) {
    case OperationType::RELU:
      unaryFloat<T>(ctx, path, [](float x) { return std::max(x, 0.f); });
      break;
    case OperationType::RELU1:
      unaryFloat<T>(ctx, path, [](float x) { return std::min(std::max(x, -1.f), 1.f); });
      break;
    case OperationType::RELU6:
      unaryFloat<T>(ctx, path, [](float x) { return std::min(std::max(x, 0.f), 6.f); });
      break;
    case OperationType::FLOOR:
      unaryFloat<T>(ctx, path, [](float x) { return std::floor(x); });
      break;
    case OperationType::LOGISTIC:
      if (ref) {
        unaryFloat<T>(ctx, path, [](float x) { return 1.f / (1.f + std::exp(-x)); });
      } else {
        unaryFloat<T>(ctx, path, [](float x) { return 1.f / (1.f + vexp(-x)); });
      }
      break;
    case OperationType::TANH:
      if (ref) {
        unaryFloat<T>(ctx, path, [](float x) { return std::tanh(x); });
      } else {
        // tanh(|x|) = (1 - e) / (1 + e) with e = exp(-2|x|) <= 1: no overflow, and the
        // absolute error near 0 stays at float epsilon.
        unaryFloat<T>(ctx, path, [](float x) {
          const float e = vexp(-2.f * std::fabs(x));
          const float t = (1.f - e) / (1.f + e);
          return std::copysign(t, x);
        });
      }
      break;
    default:
      return ctx.fail("unexpected operation");
  }
  return kOk;
}

// ---- quantized kernels (T = uint8_t or int8_t) ------------------------------------------

template <typename T>
Status executeRelu(OpContext& ctx, Path path, int32_t activation) {
  int32_t lo, hi;
  // The input and output share scale and zero point, so the clamp uses either.
  activationRangeQuantized(activation, ctx.inputShape(0), &lo, &hi);
  const T tlo = static_cast<T>(lo), thi = static_cast<T>(hi);
  const T* in = ctx.input<T>(0);
  T* out = ctx.output<T>(0);
  parallelRange(ctx, path, ctx.inputShape(0).count(), [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) out[i] = std::min(std::max(in[i], tlo), thi);
  });
  return kOk;
}

constexpr int kInputIntegerBits = 4;

// The input rescaling shared by LOGISTIC and TANH: centered input * multiplier << shift
// lands in Q4.27; beyond +-radius the function is saturated.
struct SigmoidParams {
  int32_t zeroPoint;
  int32_t multiplier;
  int leftShift;
  int32_t radius;
};

bool computeSigmoidParams(const Shape& in, SigmoidParams* p) {
  const double realMultiplier = in.scale * static_cast<double>(1 << (31 - kInputIntegerBits));
  if (!quantizeMultiplierGreaterThanOne(realMultiplier, &p->multiplier, &p->leftShift))
    return false;
  p->radius = calculateInputRadius(kInputIntegerBits, p->leftShift);
  p->zeroPoint = in.zeroPoint;
  return true;
}

// Output offset: 0 for uint8 (the unsigned result), -128 for int8.
template <typename T>
constexpr int32_t kQuantShift = std::is_same<T, int8_t>::value ? -128 : 0;

template <typename T>
Status executeSigmoidQuant(OpContext& ctx, Path path, bool isTanh) {
  SigmoidParams p;
  if (!computeSigmoidParams(ctx.inputShape(0), &p))
    return ctx.fail("input scale %g too small for the fixed-point rescaling",
                    ctx.inputShape(0).scale);
  const T* in = ctx.input<T>(0);
  T* out = ctx.output<T>(0);
  parallelRange(ctx, path, ctx.inputShape(0).count(), [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) {
      const int32_t centered = static_cast<int32_t>(in[i]) - p.zeroPoint;
      int32_t u;  // result on the unsigned 0..255 grid
      if (centered <= -p.radius) {
        u = 0;
      } else if (centered >= p.radius) {
        u = 255;
      } else {
        const int32_t x =
            multiplyByQuantizedMultiplierGreaterThanOne(centered, p.multiplier, p.leftShift);
        if (isTanh) {
          // Q0.31 -> 1/128 steps around 128.
          u = roundingDivideByPOT(fp::tanh<kInputIntegerBits>(x), 24) + 128;
        } else {
          // Q0.31 -> 1/256 steps.
          u = roundingDivideByPOT(fp::logistic<kInputIntegerBits>(x), 23);
        }
        if (u > 255) u = 255;
      }
      out[i] = static_cast<T>(u + kQuantShift<T>);
    }
  });
  return kOk;
}

template <typename T>
Status executeQuant(OpContext& ctx, Path path) {
  switch (ctx.type()) {
    case OperationType::RELU: return executeRelu<T>(ctx, path, 1);
    case OperationType::RELU1: return executeRelu<T>(ctx, path, 2);
    case OperationType::RELU6: return executeRelu<T>(ctx, path, 3);
    case OperationType::LOGISTIC: return executeSigmoidQuant<T>(ctx, path, false);
    case OperationType::TANH: return executeSigmoidQuant<T>(ctx, path, true);
    default: return ctx.fail("unsupported type %s", toString(ctx.inputType(0)));
  }
}

Status run(OpContext& ctx, Path path) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  switch (ctx.inputType(0)) {
    case OperandType::TENSOR_FLOAT32: return executeFloat<float>(ctx, path);
    case OperandType::TENSOR_FLOAT16: return executeFloat<Half>(ctx, path);
    case OperandType::TENSOR_QUANT8_ASYMM: return executeQuant<uint8_t>(ctx, path);
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED: return executeQuant<int8_t>(ctx, path);
    default: return ctx.fail("unsupported type %s", toString(ctx.inputType(0)));
  }
}

Status execute(OpContext& ctx) { return run(ctx, Path::kFast); }
Status executeReference(OpContext& ctx) { return run(ctx, Path::kReference); }

}  // namespace

NN_DEFINE_CPU_KERNEL_FULL(RELU, execute, executeReference, nullptr, nullptr);
NN_DEFINE_CPU_KERNEL_FULL(RELU1, execute, executeReference, nullptr, nullptr);
NN_DEFINE_CPU_KERNEL_FULL(RELU6, execute, executeReference, nullptr, nullptr);
NN_DEFINE_CPU_KERNEL_FULL(LOGISTIC, execute, executeReference, nullptr, nullptr);
NN_DEFINE_CPU_KERNEL_FULL(TANH, execute, executeReference, nullptr, nullptr);
NN_DEFINE_CPU_KERNEL_FULL(FLOOR, execute, executeReference, nullptr, nullptr);

}  // namespace nn
