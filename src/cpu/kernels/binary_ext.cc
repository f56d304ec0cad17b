// POW, MAXIMUM, MINIMUM, PRELU kernels.
// Quantized MAXIMUM/MINIMUM requantize both inputs to the output scale (float real value,
// double division, round half away from zero) and then compare, as the reference does; the
// fast device tabulates the requantization of the 256 possible inputs.
// Quantized PRELU uses two fixed-point multipliers: inScale/outScale for x >= 0 and
// inScale*alphaScale/outScale for the product x*alpha.
#include <cmath>
#include <limits>
#include <type_traits>

#include "cpu/kernel.h"
#include "cpu/kernels/elementwise.h"
#include "spec/ops/common.h"
#include "spec/ops/elementwise_quant.h"

namespace nn {
namespace {

using elementwise::Path;
using elementwise::PreluParams;
using elementwise::requantize;
using elementwise::runBroadcast;

template <typename T>
T preluQuant(T x, T a, const PreluParams& p) {
  const int32_t input = p.inOffset + static_cast<int32_t>(x);
  int32_t v;
  if (input >= 0) {
    v = p.outOffset + multiplyByQuantizedMultiplier(input, p.multPos, p.shiftPos);
  } else {
    const int32_t alpha = p.alphaOffset + static_cast<int32_t>(a);
    v = p.outOffset + multiplyByQuantizedMultiplier(input * alpha, p.multNeg, p.shiftNeg);
  }
  return saturateCast<T>(v);
}

template <typename T, typename F>
void floatBinary(const OpContext& ctx, Path path, const F& f) {
  runBroadcast<T, T>(ctx, path, 0, 1, [&f](T a, T b) {
    return static_cast<T>(f(static_cast<float>(a), static_cast<float>(b)));
  });
}

template <typename T>
Status executeFloat(OpContext& ctx, Path path) {
  switch (ctx.type()) {
    case OperationType::POW:
      floatBinary<T>(ctx, path, [](float a, float b) { return std::pow(a, b); });
      return kOk;
    case OperationType::MAXIMUM:
      floatBinary<T>(ctx, path, [](float a, float b) { return std::max(a, b); });
      return kOk;
    case OperationType::MINIMUM:
      floatBinary<T>(ctx, path, [](float a, float b) { return std::min(a, b); });
      return kOk;
    case OperationType::PRELU:
      floatBinary<T>(ctx, path, [](float x, float alpha) { return x >= 0.f ? x : x * alpha; });
      return kOk;
    default:
      return ctx.fail("unexpected operation");
  }
}

Status executeInt32(OpContext& ctx, Path path) {
  if (ctx.type() == OperationType::MAXIMUM) {
    runBroadcast<int32_t, int32_t>(ctx, path, 0, 1,
                                   [](int32_t a, int32_t b) { return std::max(a, b); });
  } else {
    runBroadcast<int32_t, int32_t>(ctx, path, 0, 1,
                                   [](int32_t a, int32_t b) { return std::min(a, b); });
  }
  return kOk;
}

template <typename T>
Status executeMinMaxQuant(OpContext& ctx, Path path, bool isMax) {
  const Shape& sa = ctx.inputShape(0);
  const Shape& sb = ctx.inputShape(1);
  const Shape& so = ctx.outputShape(0);
  if (path == Path::kReference) {
    runBroadcast<T, T>(ctx, path, 0, 1, [&](T a, T b) {
      const T ra = requantize<T>(a, sa, so), rb = requantize<T>(b, sb, so);
      return isMax ? std::max(ra, rb) : std::min(ra, rb);
    });
    return kOk;
  }
  // 8-bit inputs: requantize through two 256-entry tables.
  constexpr int kBias = std::is_signed<T>::value ? 128 : 0;
  T ta[256], tb[256];
  for (int v = 0; v < 256; ++v) {
    ta[v] = requantize<T>(static_cast<T>(v - kBias), sa, so);
    tb[v] = requantize<T>(static_cast<T>(v - kBias), sb, so);
  }
  if (isMax) {
    runBroadcast<T, T>(ctx, path, 0, 1, [&](T a, T b) {
      return std::max(ta[static_cast<int>(a) + kBias], tb[static_cast<int>(b) + kBias]);
    });
  } else {
    runBroadcast<T, T>(ctx, path, 0, 1, [&](T a, T b) {
      return std::min(ta[static_cast<int>(a) + kBias], tb[static_cast<int>(b) + kBias]);
    });
  }
  return kOk;
}

template <typename T>
Status executeQuant(OpContext& ctx, Path path) {
  switch (ctx.type()) {
    case OperationType::MAXIMUM: return executeMinMaxQuant<T>(ctx, path, true);
    case OperationType::MINIMUM: return executeMinMaxQuant<T>(ctx, path, false);
    case OperationType::PRELU: {
      PreluParams p;
      if (!elementwise::computePreluParams(ctx.inputShape(0), ctx.inputShape(1),
                                           ctx.outputShape(0), &p))
        return ctx.fail("unsupported quantization scales");
      runBroadcast<T, T>(ctx, path, 0, 1, [&p](T x, T a) { return preluQuant<T>(x, a, p); });
      return kOk;
    }
    default:
      return ctx.fail("unexpected operation for a quantized type");
  }
}

Status run(OpContext& ctx, Path path) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  switch (ctx.inputType(0)) {
    case OperandType::TENSOR_FLOAT32: return executeFloat<float>(ctx, path);
    case OperandType::TENSOR_FLOAT16: return executeFloat<Half>(ctx, path);
    case OperandType::TENSOR_INT32: return executeInt32(ctx, path);
    case OperandType::TENSOR_QUANT8_ASYMM: return executeQuant<uint8_t>(ctx, path);
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED: return executeQuant<int8_t>(ctx, path);
    default: return ctx.fail("unsupported type %s", toString(ctx.inputType(0)));
  }
}

Status execute(OpContext& ctx) { return run(ctx, Path::kFast); }
Status executeReference(OpContext& ctx) { return run(ctx, Path::kReference); }

}  // namespace

NN_DEFINE_CPU_KERNEL_FULL(POW, execute, executeReference, nullptr, nullptr);
NN_DEFINE_CPU_KERNEL_FULL(MAXIMUM, execute, executeReference, nullptr, nullptr);
NN_DEFINE_CPU_KERNEL_FULL(MINIMUM, execute, executeReference, nullptr, nullptr);
NN_DEFINE_CPU_KERNEL_FULL(PRELU, execute, executeReference, nullptr, nullptr);

}  // namespace nn
