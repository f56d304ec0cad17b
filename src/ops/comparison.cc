// EQUAL, NOT_EQUAL, GREATER, GREATER_EQUAL, LESS, LESS_EQUAL with broadcasting; the output is
// TENSOR_BOOL8 (0 or 1). Quantized inputs may have different scales and zero points, so they
// are compared as real values ((q - zeroPoint) * scale in float), as the reference does.
#include <cstdint>

#include "spec/ops/common.h"
#include "ops/elementwise2_util.h"
#include "ops/operation.h"

namespace nn {
namespace {

Status validateComparison(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(2, 2));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  c.requireFeatureLevel(kFeatureLevel3);
  const OperandType t = c.inputType(0);
  switch (t) {
    case OperandType::TENSOR_BOOL8:
    case OperandType::TENSOR_FLOAT16:
    case OperandType::TENSOR_FLOAT32:
    case OperandType::TENSOR_INT32:
      break;
    case OperandType::TENSOR_QUANT8_ASYMM:
      break;
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      c.requireFeatureLevel(kFeatureLevel4);
      break;
    default:
      return c.fail("input 0: unsupported type %s", toString(t));
  }
  NN_RETURN_IF_ERROR(c.checkInputTypes({t, t}));
  NN_RETURN_IF_ERROR(c.checkOutputTypes({OperandType::TENSOR_BOOL8}));
  if (ew2::isQuant8(t)) {
    for (uint32_t i = 0; i < 2; ++i)
      if (!(c.input(i).scale > 0.f))
        return c.fail("input %u: scale must be > 0, got %g", i, c.input(i).scale);
  }
  return ew2::checkBroadcastable(c, 0, 1);
}

Status prepareComparison(OpContext& ctx) { return ew2::prepareBroadcast(ctx, 0, 1); }

template <typename T, typename Cmp>
void compareValues(const OpContext& ctx, const Cmp& cmp) {
  ew2::runBroadcast<T, uint8_t>(ctx, 0, 1, [&cmp](T a, T b) { return static_cast<uint8_t>(cmp(a, b)); });
}

template <typename T, typename Cmp>
void compareQuant(const OpContext& ctx, const Cmp& cmp) {
  const Shape& sa = ctx.inputShape(0);
  const Shape& sb = ctx.inputShape(1);
  const float scaleA = sa.scale, scaleB = sb.scale;
  const int32_t zpA = sa.zeroPoint, zpB = sb.zeroPoint;
  ew2::runBroadcast<T, uint8_t>(ctx, 0, 1, [=, &cmp](T a, T b) {
    const float ra = static_cast<float>(static_cast<int32_t>(a) - zpA) * scaleA;
    const float rb = static_cast<float>(static_cast<int32_t>(b) - zpB) * scaleB;
    return static_cast<uint8_t>(cmp(ra, rb));
  });
}

template <typename Cmp>
Status dispatch(OpContext& ctx, const Cmp& cmp) {
  switch (ctx.inputType(0)) {
    case OperandType::TENSOR_BOOL8:
      // Any non-zero byte is true.
      ew2::runBroadcast<uint8_t, uint8_t>(ctx, 0, 1, [&cmp](uint8_t a, uint8_t b) {
        return static_cast<uint8_t>(cmp(a != 0, b != 0));
      });
      return kOk;
    case OperandType::TENSOR_FLOAT16:
      ew2::runBroadcast<Half, uint8_t>(ctx, 0, 1, [&cmp](Half a, Half b) {
        return static_cast<uint8_t>(cmp(static_cast<float>(a), static_cast<float>(b)));
      });
      return kOk;
    case OperandType::TENSOR_FLOAT32: compareValues<float>(ctx, cmp); return kOk;
    case OperandType::TENSOR_INT32: compareValues<int32_t>(ctx, cmp); return kOk;
    case OperandType::TENSOR_QUANT8_ASYMM: compareQuant<uint8_t>(ctx, cmp); return kOk;
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED: compareQuant<int8_t>(ctx, cmp); return kOk;
    default: return ctx.fail("unsupported type %s", toString(ctx.inputType(0)));
  }
}

struct Equal { template <typename V> bool operator()(V a, V b) const { return a == b; } };
struct NotEqual { template <typename V> bool operator()(V a, V b) const { return a != b; } };
struct Greater { template <typename V> bool operator()(V a, V b) const { return a > b; } };
struct GreaterEqual { template <typename V> bool operator()(V a, V b) const { return a >= b; } };
struct Less { template <typename V> bool operator()(V a, V b) const { return a < b; } };
struct LessEqual { template <typename V> bool operator()(V a, V b) const { return a <= b; } };

Status executeComparison(OpContext& ctx) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  switch (ctx.type()) {
    case OperationType::EQUAL: return dispatch(ctx, Equal{});
    case OperationType::NOT_EQUAL: return dispatch(ctx, NotEqual{});
    case OperationType::GREATER: return dispatch(ctx, Greater{});
    case OperationType::GREATER_EQUAL: return dispatch(ctx, GreaterEqual{});
    case OperationType::LESS: return dispatch(ctx, Less{});
    case OperationType::LESS_EQUAL: return dispatch(ctx, LessEqual{});
    default: return ctx.fail("unexpected operation");
  }
}

}  // namespace

NN_REGISTER_OPERATION(EQUAL, validateComparison, prepareComparison, executeComparison);
NN_REGISTER_OPERATION(NOT_EQUAL, validateComparison, prepareComparison, executeComparison);
NN_REGISTER_OPERATION(GREATER, validateComparison, prepareComparison, executeComparison);
NN_REGISTER_OPERATION(GREATER_EQUAL, validateComparison, prepareComparison, executeComparison);
NN_REGISTER_OPERATION(LESS, validateComparison, prepareComparison, executeComparison);
NN_REGISTER_OPERATION(LESS_EQUAL, validateComparison, prepareComparison, executeComparison);

}  // namespace nn
