// ADD, MUL, SUB, DIV kernels: elementwise arithmetic with numpy-style broadcasting and a
// fused activation. Quantized variants follow the NNAPI reference arithmetic exactly:
//  - ADD/SUB rescale both inputs to a common scale with 20 bits of headroom, add, then
//    requantize to the output scale (SUB negates the second input's multiplier);
//  - MUL multiplies the zero-point-corrected inputs and requantizes once.
#include <cmath>
#include <limits>

#include "cpu/kernel.h"
#include "cpu/kernels/elementwise.h"
#include "cpu/kernels/eltwise_half.h"
#include "spec/ops/common.h"
#include "spec/ops/elementwise_quant.h"

namespace nn {
namespace {

using elementwise::Path;

constexpr uint32_t kInput1 = 0;
constexpr uint32_t kInput2 = 1;
constexpr uint32_t kActivation = 2;

enum class BinOp { ADD, MUL, SUB, DIV };

BinOp binOpOf(OperationType t) {
  switch (t) {
    case OperationType::MUL: return BinOp::MUL;
    case OperationType::SUB: return BinOp::SUB;
    case OperationType::DIV: return BinOp::DIV;
    default: return BinOp::ADD;
  }
}

template <typename T, typename F>
void run(const OpContext& ctx, Path path, const F& f) {
  elementwise::runBroadcast<T, T>(ctx, path, kInput1, kInput2, f);
}

// Float32 and float16 (computed in float32 and rounded once, as the reference does).
template <typename T>
Status executeFloat(OpContext& ctx, Path path, BinOp op, int32_t activation) {
  float lo, hi;
  activationRangeFloat(activation, &lo, &hi);
  auto clampTo = [lo, hi](float v) { return std::min(std::max(v, lo), hi); };
  switch (op) {
    case BinOp::ADD:
      run<T>(ctx, path, [=](T a, T b) { return static_cast<T>(clampTo(float(a) + float(b))); });
      break;
    case BinOp::SUB:
      run<T>(ctx, path, [=](T a, T b) { return static_cast<T>(clampTo(float(a) - float(b))); });
      break;
    case BinOp::MUL:
      run<T>(ctx, path, [=](T a, T b) { return static_cast<T>(clampTo(float(a) * float(b))); });
      break;
    case BinOp::DIV:
      run<T>(ctx, path, [=](T a, T b) { return static_cast<T>(clampTo(float(a) / float(b))); });
      break;
  }
  return kOk;
}

template <typename T>
Status executeQuant(OpContext& ctx, Path path, BinOp op, int32_t activation) {
  const Shape& s1 = ctx.inputShape(kInput1);
  const Shape& s2 = ctx.inputShape(kInput2);
  const Shape& so = ctx.outputShape(0);
  if (op == BinOp::MUL) {
    elementwise::MulQuantParams p;
    if (!elementwise::computeMulQuantParams(s1, s2, so, activation, &p))
      return ctx.fail("unsupported quantization scales");
    run<T>(ctx, path, [p](T a, T b) {
      const int32_t prod = (static_cast<int32_t>(a) + p.offset1) * (static_cast<int32_t>(b) + p.offset2);
      const int32_t v =
          p.outOffset + multiplyByQuantizedMultiplierSmallerThanOne(prod, p.mult, p.shift);
      return static_cast<T>(std::min(std::max(v, p.actMin), p.actMax));
    });
    return kOk;
  }
  elementwise::AddQuantParams p;
  if (!elementwise::computeAddQuantParams(s1, s2, so, op == BinOp::SUB, activation, &p))
    return ctx.fail("unsupported quantization scales");
  run<T>(ctx, path, [p](T a, T b) {
    const int32_t x1 = (static_cast<int32_t>(a) + p.offset1) * (1 << elementwise::kAddLeftShift);
    const int32_t x2 = (static_cast<int32_t>(b) + p.offset2) * (1 << elementwise::kAddLeftShift);
    const int32_t sum = multiplyByQuantizedMultiplierSmallerThanOne(x1, p.mult1, p.shift1) +
                        multiplyByQuantizedMultiplierSmallerThanOne(x2, p.mult2, p.shift2);
    const int32_t v =
        p.outOffset + multiplyByQuantizedMultiplierSmallerThanOne(sum, p.outMult, p.outShift);
    return static_cast<T>(std::min(std::max(v, p.actMin), p.actMax));
  });
  return kOk;
}

// Two's-complement wrapping for +, -, *; DIV is floor division with x/0 defined as 0 (the
// spec leaves it undefined; it must not crash).
Status executeInt32(OpContext& ctx, Path path, BinOp op) {
  switch (op) {
    case BinOp::ADD:
      run<int32_t>(ctx, path, [](int32_t a, int32_t b) {
        return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
      });
      break;
    case BinOp::SUB:
      run<int32_t>(ctx, path, [](int32_t a, int32_t b) {
        return static_cast<int32_t>(static_cast<uint32_t>(a) - static_cast<uint32_t>(b));
      });
      break;
    case BinOp::MUL:
      run<int32_t>(ctx, path, [](int32_t a, int32_t b) {
        return static_cast<int32_t>(static_cast<uint32_t>(a) * static_cast<uint32_t>(b));
      });
      break;
    case BinOp::DIV:
      run<int32_t>(ctx, path, [](int32_t a, int32_t b) -> int32_t {
        if (b == 0) return 0;
        if (b == -1) return static_cast<int32_t>(0u - static_cast<uint32_t>(a));
        int32_t q = a / b;
        if (a % b != 0 && ((a < 0) != (b < 0))) --q;
        return q;
      });
      break;
  }
  return kOk;
}

Status runBinary(OpContext& ctx, Path path) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  const int32_t activation = ctx.scalar<int32_t>(kActivation);
  const OperandType t = ctx.inputType(kInput1);
  if (!isValidFusedActivation(activation))
    return ctx.fail("input 2: fused activation must be 0..3, got %d", activation);
  if (t == OperandType::TENSOR_INT32 && activation != 0)
    return ctx.fail("input 2: fused activation must be NONE for TENSOR_INT32, got %d", activation);
  const BinOp op = binOpOf(ctx.type());
  // Float16 storage of a relaxed model's residual blocks (graph_fusion.h): types may differ.
  if (path == Path::kFast && half_ops::addTakes(ctx)) {
    half_ops::add(ctx, activation);
    return kOk;
  }
  switch (t) {
    case OperandType::TENSOR_FLOAT32: return executeFloat<float>(ctx, path, op, activation);
    case OperandType::TENSOR_FLOAT16: return executeFloat<Half>(ctx, path, op, activation);
    case OperandType::TENSOR_QUANT8_ASYMM: return executeQuant<uint8_t>(ctx, path, op, activation);
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      return executeQuant<int8_t>(ctx, path, op, activation);
    case OperandType::TENSOR_INT32: return executeInt32(ctx, path, op);
    default: return ctx.fail("unsupported type %s", toString(t));
  }
}

// The fast device walks planned broadcast runs in parallel; the reference device computes
// one multi-index per element, serially.
Status execute(OpContext& ctx) { return runBinary(ctx, Path::kFast); }
Status executeReference(OpContext& ctx) { return runBinary(ctx, Path::kReference); }

}  // namespace

NN_DEFINE_CPU_KERNEL_FULL(ADD, execute, executeReference, nullptr, nullptr);
NN_DEFINE_CPU_KERNEL_FULL(MUL, execute, executeReference, nullptr, nullptr);
NN_DEFINE_CPU_KERNEL_FULL(SUB, execute, executeReference, nullptr, nullptr);
NN_DEFINE_CPU_KERNEL_FULL(DIV, execute, executeReference, nullptr, nullptr);

}  // namespace nn
