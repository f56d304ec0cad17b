// ABS, EXP, LOG, NEG, RSQRT, SIN, SQRT kernels.
// Float16 is computed in float32 and rounded once. INT32 ABS/NEG wrap on INT32_MIN (two's
// complement) instead of overflowing. Quantized RSQRT follows the reference integer scheme:
// 1/sqrt of the centered input as a fixed-point multiplier applied to 1 << 20, then rescaled
// by 1 / (sqrt(inputScale) * outputScale); the fast device tabulates it over the 256 inputs.
#include <cmath>
#include <limits>
#include <type_traits>

#include "cpu/kernel.h"
#include "cpu/kernels/elementwise.h"
#include "cpu/kernels/fixed_point.h"
#include "spec/ops/common.h"
#include "spec/ops/elementwise_quant.h"

namespace nn {
namespace {

using elementwise::Path;
using elementwise::RsqrtParams;
using elementwise::runUnary;

template <typename T, typename F>
void unaryFloat(const OpContext& ctx, Path path, const F& f) {
  runUnary<T, T>(ctx, path, [&f](T x) { return static_cast<T>(f(static_cast<float>(x))); });
}

template <typename T>
Status executeFloat(OpContext& ctx, Path path) {
  switch (ctx.type()) {
    case OperationType::ABS: unaryFloat<T>(ctx, path, [](float x) { return std::fabs(x); }); break;
    case OperationType::EXP: unaryFloat<T>(ctx, path, [](float x) { return std::exp(x); }); break;
    case OperationType::LOG: unaryFloat<T>(ctx, path, [](float x) { return std::log(x); }); break;
    case OperationType::NEG: unaryFloat<T>(ctx, path, [](float x) { return -x; }); break;
    case OperationType::RSQRT:
      unaryFloat<T>(ctx, path, [](float x) { return 1.f / std::sqrt(x); });
      break;
    case OperationType::SIN: unaryFloat<T>(ctx, path, [](float x) { return std::sin(x); }); break;
    case OperationType::SQRT: unaryFloat<T>(ctx, path, [](float x) { return std::sqrt(x); }); break;
    default: return ctx.fail("unexpected operation");
  }
  return kOk;
}

Status executeInt32(OpContext& ctx, Path path) {
  switch (ctx.type()) {
    case OperationType::ABS:
      runUnary<int32_t, int32_t>(ctx, path, [](int32_t x) {
        const uint32_t u = static_cast<uint32_t>(x);
        return static_cast<int32_t>(x < 0 ? 0u - u : u);
      });
      return kOk;
    case OperationType::NEG:
      runUnary<int32_t, int32_t>(
          ctx, path, [](int32_t x) { return static_cast<int32_t>(0u - static_cast<uint32_t>(x)); });
      return kOk;
    default:
      return ctx.fail("unexpected operation for TENSOR_INT32");
  }
}

template <typename T>
T rsqrtQuant(T x, const RsqrtParams& p) {
  constexpr int kShift = 20;  // keeps 1/sqrt(v) an integer with enough precision
  const int32_t v = static_cast<int32_t>(x) - p.inZeroPoint;
  // 0 (and, undefined, negatives) map to the largest representable value.
  if (v <= 0) return std::numeric_limits<T>::max();
  int32_t invMultiplier;
  int invShift;
  fp::invSqrtQuantizedMultiplier(v, -1, &invMultiplier, &invShift);
  const int32_t data = multiplyByQuantizedMultiplier(1, invMultiplier, invShift + kShift);
  const int32_t out = multiplyByQuantizedMultiplier(data, p.multiplier, p.shift - kShift) + p.outZeroPoint;
  return saturateCast<T>(out);
}

template <typename T>
Status executeRsqrtQuant(OpContext& ctx, Path path) {
  RsqrtParams p;
  if (!elementwise::computeRsqrtParams(ctx.inputShape(0), ctx.outputShape(0), &p))
    return ctx.fail("unsupported quantization scales");
  if (path == Path::kReference) {
    runUnary<T, T>(ctx, path, [&p](T x) { return rsqrtQuant<T>(x, p); });
    return kOk;
  }
  T table[256];
  constexpr int kBias = std::is_signed<T>::value ? 128 : 0;
  for (int v = 0; v < 256; ++v) table[v] = rsqrtQuant<T>(static_cast<T>(v - kBias), p);
  runUnary<T, T>(ctx, path, [&table](T x) { return table[static_cast<int>(x) + kBias]; });
  return kOk;
}

Status run(OpContext& ctx, Path path) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  switch (ctx.inputType(0)) {
    case OperandType::TENSOR_FLOAT32: return executeFloat<float>(ctx, path);
    case OperandType::TENSOR_FLOAT16: return executeFloat<Half>(ctx, path);
    case OperandType::TENSOR_INT32: return executeInt32(ctx, path);
    case OperandType::TENSOR_QUANT8_ASYMM: return executeRsqrtQuant<uint8_t>(ctx, path);
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED: return executeRsqrtQuant<int8_t>(ctx, path);
    default: return ctx.fail("unsupported type %s", toString(ctx.inputType(0)));
  }
}

Status execute(OpContext& ctx) { return run(ctx, Path::kFast); }
Status executeReference(OpContext& ctx) { return run(ctx, Path::kReference); }

}  // namespace

NN_DEFINE_CPU_KERNEL_FULL(ABS, execute, executeReference, nullptr, nullptr);
NN_DEFINE_CPU_KERNEL_FULL(EXP, execute, executeReference, nullptr, nullptr);
NN_DEFINE_CPU_KERNEL_FULL(LOG, execute, executeReference, nullptr, nullptr);
NN_DEFINE_CPU_KERNEL_FULL(NEG, execute, executeReference, nullptr, nullptr);
NN_DEFINE_CPU_KERNEL_FULL(RSQRT, execute, executeReference, nullptr, nullptr);
NN_DEFINE_CPU_KERNEL_FULL(SIN, execute, executeReference, nullptr, nullptr);
NN_DEFINE_CPU_KERNEL_FULL(SQRT, execute, executeReference, nullptr, nullptr);

}  // namespace nn
