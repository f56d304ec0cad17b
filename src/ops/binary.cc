// ADD, MUL, SUB, DIV: elementwise arithmetic with numpy-style broadcasting and a fused
// activation. Quantized variants follow the NNAPI reference arithmetic exactly:
//  - ADD/SUB rescale both inputs to a common scale with 20 bits of headroom, add, then
//    requantize to the output scale (SUB negates the second input's multiplier);
//  - MUL multiplies the zero-point-corrected inputs and requantizes once.
#include <cmath>
#include <limits>

#include "spec/ops/common.h"
#include "ops/elementwise_util.h"
#include "ops/operation.h"

namespace nn {
namespace {

using elementwise::binaryBroadcast;
using elementwise::binaryBroadcastReference;

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

bool isQuant8(OperandType t) {
  return t == OperandType::TENSOR_QUANT8_ASYMM || t == OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
}

Status validateBinary(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(3, 3));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  const BinOp op = binOpOf(c.type());
  // SUB and DIV arrived in NNAPI 1.1.
  const int64_t introduced = (op == BinOp::SUB || op == BinOp::DIV) ? kFeatureLevel2 : kFeatureLevel1;
  c.requireFeatureLevel(introduced);
  const OperandType t = c.inputType(kInput1);
  switch (t) {
    case OperandType::TENSOR_FLOAT32:
      break;
    case OperandType::TENSOR_FLOAT16:
      c.requireFeatureLevel(kFeatureLevel3);
      break;
    case OperandType::TENSOR_QUANT8_ASYMM:
      if (op == BinOp::DIV) return c.fail("input 0: DIV does not support TENSOR_QUANT8_ASYMM");
      if (op == BinOp::SUB) c.requireFeatureLevel(kFeatureLevel3);
      break;
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      if (op == BinOp::DIV)
        return c.fail("input 0: DIV does not support TENSOR_QUANT8_ASYMM_SIGNED");
      c.requireFeatureLevel(kFeatureLevel4);
      break;
    case OperandType::TENSOR_INT32:
      c.requireFeatureLevel(kFeatureLevel4);
      break;
    default:
      return c.fail("input 0: unsupported type %s (expected TENSOR_FLOAT32, TENSOR_FLOAT16, "
                    "TENSOR_QUANT8_ASYMM[_SIGNED] or TENSOR_INT32)",
                    toString(t));
  }
  NN_RETURN_IF_ERROR(c.checkInputTypes({t, t, OperandType::INT32}));
  NN_RETURN_IF_ERROR(c.checkOutputTypes({t}));
  NN_RETURN_IF_ERROR(c.checkInputRankAtMost(kInput1, 4));
  NN_RETURN_IF_ERROR(c.checkInputRankAtMost(kInput2, 4));

  int32_t activation = 0;
  if (c.constantScalar(kActivation, &activation)) {
    if (!isValidFusedActivation(activation))
      return c.fail("input 2: fused activation must be 0..3, got %d", activation);
    if (t == OperandType::TENSOR_INT32 && activation != 0)
      return c.fail("input 2: fused activation must be NONE for TENSOR_INT32, got %d", activation);
  }

  if (isQuant8(t)) {
    const Operand& in1 = c.input(kInput1);
    const Operand& in2 = c.input(kInput2);
    const Operand& out = c.output(0);
    if (!(in1.scale > 0.f) || !(in2.scale > 0.f) || !(out.scale > 0.f))
      return c.fail("quantized scales must be > 0 (input0 %g, input1 %g, output %g)", in1.scale,
                    in2.scale, out.scale);
    if (op == BinOp::MUL && !(out.scale > in1.scale * in2.scale))
      return c.fail("output scale %g must be > input0 scale * input1 scale = %g", out.scale,
                    in1.scale * in2.scale);
  }

  // Shapes fully known in the model and not broadcastable can never run.
  const Dims& d1 = c.input(kInput1).dimensions;
  const Dims& d2 = c.input(kInput2).dimensions;
  if (!d1.empty() && !d2.empty()) {
    const size_t rank = std::max(d1.size(), d2.size());
    for (size_t i = 0; i < rank; ++i) {
      const uint32_t a = i < rank - d1.size() ? 1 : d1[i - (rank - d1.size())];
      const uint32_t b = i < rank - d2.size() ? 1 : d2[i - (rank - d2.size())];
      if (a != 0 && b != 0 && a != b && a != 1 && b != 1)
        return c.fail("inputs %s and %s are not broadcast-compatible (dimension %zu: %u vs %u)",
                      toString(d1).c_str(), toString(d2).c_str(), i, a, b);
    }
  }
  return kOk;
}

// Quantization parameters of ADD/SUB, computed as the reference does.
struct AddQuantParams {
  int32_t offset1, offset2, outOffset;
  int32_t mult1, mult2, outMult;
  int shift1, shift2, outShift;
  int32_t actMin, actMax;
};

bool computeAddQuantParams(const Shape& s1, const Shape& s2, const Shape& out, bool subtract,
                           int32_t activation, AddQuantParams* p) {
  constexpr int kLeftShift = 20;
  const double twiceMaxInputScale = 2.0 * std::max(s1.scale, s2.scale);
  const double realMult1 = s1.scale / twiceMaxInputScale;
  const double realMult2 = s2.scale / twiceMaxInputScale;
  // (1 << 20) * scale is a float product in the reference.
  const double realOutMult =
      twiceMaxInputScale / static_cast<double>(static_cast<float>(1 << kLeftShift) * out.scale);
  if (!quantizeMultiplierSmallerThanOne(realMult1, &p->mult1, &p->shift1)) return false;
  if (!quantizeMultiplierSmallerThanOne(realMult2, &p->mult2, &p->shift2)) return false;
  if (!quantizeMultiplierSmallerThanOne(realOutMult, &p->outMult, &p->outShift)) return false;
  if (subtract) p->mult2 = -p->mult2;
  p->offset1 = -s1.zeroPoint;
  p->offset2 = -s2.zeroPoint;
  p->outOffset = out.zeroPoint;
  activationRangeQuantized(activation, out, &p->actMin, &p->actMax);
  return true;
}

struct MulQuantParams {
  int32_t offset1, offset2, outOffset;
  int32_t mult;
  int shift;
  int32_t actMin, actMax;
};

bool computeMulQuantParams(const Shape& s1, const Shape& s2, const Shape& out, int32_t activation,
                           MulQuantParams* p) {
  // The reference forms the input product scale as a float.
  const double inputProductScale = static_cast<float>(s1.scale * s2.scale);
  const double realMult = inputProductScale / out.scale;
  if (!quantizeMultiplierSmallerThanOne(realMult, &p->mult, &p->shift)) return false;
  p->offset1 = -s1.zeroPoint;
  p->offset2 = -s2.zeroPoint;
  p->outOffset = out.zeroPoint;
  activationRangeQuantized(activation, out, &p->actMin, &p->actMax);
  return true;
}

Status prepareBinary(OpContext& ctx) {
  const Shape& in1 = ctx.inputShape(kInput1);
  const Shape& in2 = ctx.inputShape(kInput2);
  if (in1.rank() > 4 || in2.rank() > 4)
    return ctx.fail("input ranks must be <= 4, got %u and %u", in1.rank(), in2.rank());
  Dims out;
  if (!elementwise::broadcastShapes(in1.dims, in2.dims, &out))
    return ctx.fail("inputs %s and %s are not broadcast-compatible", toString(in1.dims).c_str(),
                    toString(in2.dims).c_str());
  int32_t activation = 0;
  if (ctx.hasInputData(kActivation)) {
    activation = ctx.scalar<int32_t>(kActivation);
    if (!isValidFusedActivation(activation))
      return ctx.fail("input 2: fused activation must be 0..3, got %d", activation);
    if (in1.type == OperandType::TENSOR_INT32 && activation != 0)
      return ctx.fail("input 2: fused activation must be NONE for TENSOR_INT32, got %d",
                      activation);
  }
  // Catch multipliers the fixed-point scheme cannot represent before execution.
  if (isQuant8(in1.type)) {
    const Shape& outShape = ctx.outputShape(0);
    const BinOp op = binOpOf(ctx.type());
    bool ok = true;
    if (op == BinOp::MUL) {
      MulQuantParams p;
      ok = computeMulQuantParams(in1, in2, outShape, activation, &p);
    } else {
      AddQuantParams p;
      ok = computeAddQuantParams(in1, in2, outShape, op == BinOp::SUB, activation, &p);
    }
    if (!ok)
      return ctx.fail("quantization scales (input0 %g, input1 %g, output %g) give a rescaling "
                      "multiplier outside the supported range",
                      in1.scale, in2.scale, outShape.scale);
  }
  return ctx.setOutputDims(0, std::move(out));
}

template <typename T, typename F>
void run(const OpContext& ctx, const F& f) {
  const T* a = ctx.input<T>(kInput1);
  const T* b = ctx.input<T>(kInput2);
  T* out = ctx.output<T>(0);
  if (ctx.useReferenceKernels()) {
    binaryBroadcastReference(a, ctx.inputShape(kInput1).dims, b, ctx.inputShape(kInput2).dims, out,
                             ctx.outputShape(0).dims, f);
  } else {
    binaryBroadcast(ctx, a, ctx.inputShape(kInput1).dims, b, ctx.inputShape(kInput2).dims, out,
                    ctx.outputShape(0).dims, f);
  }
}

// Float32 and float16 (computed in float32 and rounded once, as the reference does).
template <typename T>
Status executeFloat(OpContext& ctx, BinOp op, int32_t activation) {
  float lo, hi;
  activationRangeFloat(activation, &lo, &hi);
  auto clampTo = [lo, hi](float v) { return std::min(std::max(v, lo), hi); };
  switch (op) {
    case BinOp::ADD:
      run<T>(ctx, [=](T a, T b) { return static_cast<T>(clampTo(float(a) + float(b))); });
      break;
    case BinOp::SUB:
      run<T>(ctx, [=](T a, T b) { return static_cast<T>(clampTo(float(a) - float(b))); });
      break;
    case BinOp::MUL:
      run<T>(ctx, [=](T a, T b) { return static_cast<T>(clampTo(float(a) * float(b))); });
      break;
    case BinOp::DIV:
      run<T>(ctx, [=](T a, T b) { return static_cast<T>(clampTo(float(a) / float(b))); });
      break;
  }
  return kOk;
}

template <typename T>
Status executeQuant(OpContext& ctx, BinOp op, int32_t activation) {
  const Shape& s1 = ctx.inputShape(kInput1);
  const Shape& s2 = ctx.inputShape(kInput2);
  const Shape& so = ctx.outputShape(0);
  if (op == BinOp::MUL) {
    MulQuantParams p;
    if (!computeMulQuantParams(s1, s2, so, activation, &p))
      return ctx.fail("unsupported quantization scales");
    run<T>(ctx, [p](T a, T b) {
      const int32_t prod = (static_cast<int32_t>(a) + p.offset1) * (static_cast<int32_t>(b) + p.offset2);
      const int32_t v =
          p.outOffset + multiplyByQuantizedMultiplierSmallerThanOne(prod, p.mult, p.shift);
      return static_cast<T>(std::min(std::max(v, p.actMin), p.actMax));
    });
    return kOk;
  }
  AddQuantParams p;
  if (!computeAddQuantParams(s1, s2, so, op == BinOp::SUB, activation, &p))
    return ctx.fail("unsupported quantization scales");
  run<T>(ctx, [p](T a, T b) {
    const int32_t x1 = (static_cast<int32_t>(a) + p.offset1) * (1 << 20);
    const int32_t x2 = (static_cast<int32_t>(b) + p.offset2) * (1 << 20);
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
Status executeInt32(OpContext& ctx, BinOp op) {
  switch (op) {
    case BinOp::ADD:
      run<int32_t>(ctx, [](int32_t a, int32_t b) {
        return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
      });
      break;
    case BinOp::SUB:
      run<int32_t>(ctx, [](int32_t a, int32_t b) {
        return static_cast<int32_t>(static_cast<uint32_t>(a) - static_cast<uint32_t>(b));
      });
      break;
    case BinOp::MUL:
      run<int32_t>(ctx, [](int32_t a, int32_t b) {
        return static_cast<int32_t>(static_cast<uint32_t>(a) * static_cast<uint32_t>(b));
      });
      break;
    case BinOp::DIV:
      run<int32_t>(ctx, [](int32_t a, int32_t b) -> int32_t {
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

Status executeBinary(OpContext& ctx) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  const int32_t activation = ctx.scalar<int32_t>(kActivation);
  const OperandType t = ctx.inputType(kInput1);
  if (!isValidFusedActivation(activation))
    return ctx.fail("input 2: fused activation must be 0..3, got %d", activation);
  if (t == OperandType::TENSOR_INT32 && activation != 0)
    return ctx.fail("input 2: fused activation must be NONE for TENSOR_INT32, got %d", activation);
  const BinOp op = binOpOf(ctx.type());
  switch (t) {
    case OperandType::TENSOR_FLOAT32: return executeFloat<float>(ctx, op, activation);
    case OperandType::TENSOR_FLOAT16: return executeFloat<Half>(ctx, op, activation);
    case OperandType::TENSOR_QUANT8_ASYMM: return executeQuant<uint8_t>(ctx, op, activation);
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED: return executeQuant<int8_t>(ctx, op, activation);
    case OperandType::TENSOR_INT32: return executeInt32(ctx, op);
    default: return ctx.fail("unsupported type %s", toString(t));
  }
}

}  // namespace

NN_REGISTER_OPERATION(ADD, validateBinary, prepareBinary, executeBinary);
NN_REGISTER_OPERATION(MUL, validateBinary, prepareBinary, executeBinary);
NN_REGISTER_OPERATION(SUB, validateBinary, prepareBinary, executeBinary);
NN_REGISTER_OPERATION(DIV, validateBinary, prepareBinary, executeBinary);

}  // namespace nn
