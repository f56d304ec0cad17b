// EQUAL, NOT_EQUAL, GREATER, GREATER_EQUAL, LESS, LESS_EQUAL kernels with broadcasting; the
// output is TENSOR_BOOL8 (0 or 1). Quantized inputs may have different scales and zero
// points, so they are compared as real values ((q - zeroPoint) * scale in float), as the
// reference does.
#include <cstdint>

#include "cpu/kernel.h"
#include "cpu/kernels/elementwise.h"

namespace nn {
namespace {

using elementwise::Path;
using elementwise::runBroadcast;

template <typename T, typename Cmp>
void compareValues(const OpContext& ctx, Path path, const Cmp& cmp) {
  runBroadcast<T, uint8_t>(ctx, path, 0, 1,
                           [&cmp](T a, T b) { return static_cast<uint8_t>(cmp(a, b)); });
}

template <typename T, typename Cmp>
void compareQuant(const OpContext& ctx, Path path, const Cmp& cmp) {
  const Shape& sa = ctx.inputShape(0);
  const Shape& sb = ctx.inputShape(1);
  const float scaleA = sa.scale, scaleB = sb.scale;
  const int32_t zpA = sa.zeroPoint, zpB = sb.zeroPoint;
  runBroadcast<T, uint8_t>(ctx, path, 0, 1, [=, &cmp](T a, T b) {
    const float ra = static_cast<float>(static_cast<int32_t>(a) - zpA) * scaleA;
    const float rb = static_cast<float>(static_cast<int32_t>(b) - zpB) * scaleB;
    return static_cast<uint8_t>(cmp(ra, rb));
  });
}

template <typename Cmp>
Status dispatch(OpContext& ctx, Path path, const Cmp& cmp) {
  switch (ctx.inputType(0)) {
    case OperandType::TENSOR_BOOL8:
      // Any non-zero byte is true.
      runBroadcast<uint8_t, uint8_t>(ctx, path, 0, 1, [&cmp](uint8_t a, uint8_t b) {
        return static_cast<uint8_t>(cmp(a != 0, b != 0));
      });
      return kOk;
    case OperandType::TENSOR_FLOAT16:
      runBroadcast<Half, uint8_t>(ctx, path, 0, 1, [&cmp](Half a, Half b) {
        return static_cast<uint8_t>(cmp(static_cast<float>(a), static_cast<float>(b)));
      });
      return kOk;
    case OperandType::TENSOR_FLOAT32: compareValues<float>(ctx, path, cmp); return kOk;
    case OperandType::TENSOR_INT32: compareValues<int32_t>(ctx, path, cmp); return kOk;
    case OperandType::TENSOR_QUANT8_ASYMM: compareQuant<uint8_t>(ctx, path, cmp); return kOk;
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED: compareQuant<int8_t>(ctx, path, cmp); return kOk;
    default: return ctx.fail("unsupported type %s", toString(ctx.inputType(0)));
  }
}

struct Equal { template <typename V> bool operator()(V a, V b) const { return a == b; } };
struct NotEqual { template <typename V> bool operator()(V a, V b) const { return a != b; } };
struct Greater { template <typename V> bool operator()(V a, V b) const { return a > b; } };
struct GreaterEqual { template <typename V> bool operator()(V a, V b) const { return a >= b; } };
struct Less { template <typename V> bool operator()(V a, V b) const { return a < b; } };
struct LessEqual { template <typename V> bool operator()(V a, V b) const { return a <= b; } };

Status run(OpContext& ctx, Path path) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  switch (ctx.type()) {
    case OperationType::EQUAL: return dispatch(ctx, path, Equal{});
    case OperationType::NOT_EQUAL: return dispatch(ctx, path, NotEqual{});
    case OperationType::GREATER: return dispatch(ctx, path, Greater{});
    case OperationType::GREATER_EQUAL: return dispatch(ctx, path, GreaterEqual{});
    case OperationType::LESS: return dispatch(ctx, path, Less{});
    case OperationType::LESS_EQUAL: return dispatch(ctx, path, LessEqual{});
    default: return ctx.fail("unexpected operation");
  }
}

Status execute(OpContext& ctx) { return run(ctx, Path::kFast); }
Status executeReference(OpContext& ctx) { return run(ctx, Path::kReference); }

}  // namespace

NN_DEFINE_CPU_KERNEL_FULL(EQUAL, execute, executeReference, nullptr, nullptr);
NN_DEFINE_CPU_KERNEL_FULL(NOT_EQUAL, execute, executeReference, nullptr, nullptr);
NN_DEFINE_CPU_KERNEL_FULL(GREATER, execute, executeReference, nullptr, nullptr);
NN_DEFINE_CPU_KERNEL_FULL(GREATER_EQUAL, execute, executeReference, nullptr, nullptr);
NN_DEFINE_CPU_KERNEL_FULL(LESS, execute, executeReference, nullptr, nullptr);
NN_DEFINE_CPU_KERNEL_FULL(LESS_EQUAL, execute, executeReference, nullptr, nullptr);

}  // namespace nn
