// REDUCE_ALL / ANY / MAX / MIN / PROD / SUM on the CPU. Like the NNAPI reference, every
// output starts at the identity of the reduction and folds in its inputs in row-major input
// order. MAX/MIN on 8-bit tensors work on the stored values (input and output share the
// quantization), so no requantization is involved. Float16 sums and products accumulate in
// float32.
#include <algorithm>
#include <limits>
#include <type_traits>
#include <vector>

#include "cpu/kernel.h"
#include "spec/ops/reduce_util.h"

namespace nn {
namespace {

using namespace shape_ops;

// Input walked as a 4-D row-major view; outStride[k] is 0 for reduced dimensions.
struct ReduceView {
  uint32_t d[4] = {1, 1, 1, 1};
  size_t os[4] = {0, 0, 0, 0};
};

ReduceView makeView(const Dims& in, const std::vector<bool>& reduced) {
  ReduceView v;
  const size_t rank = in.size();
  size_t stride = 1;
  for (size_t i = rank; i-- > 0;) {
    v.d[4 - rank + i] = in[i];
    if (!reduced[i]) {
      v.os[4 - rank + i] = stride;
      stride *= in[i];
    }
  }
  return v;
}

template <typename In, typename Acc, typename F>
void fold(const In* src, Acc* acc, const ReduceView& v, F f) {
  for (uint32_t a = 0; a < v.d[0]; ++a)
    for (uint32_t b = 0; b < v.d[1]; ++b)
      for (uint32_t c = 0; c < v.d[2]; ++c) {
        Acc* o = acc + a * v.os[0] + b * v.os[1] + c * v.os[2];
        if (v.os[3] == 0) {
          Acc s = o[0];
          for (uint32_t e = 0; e < v.d[3]; ++e) s = f(s, static_cast<Acc>(*src++));
          o[0] = s;
        } else {
          for (uint32_t e = 0; e < v.d[3]; ++e, ++src) o[e] = f(o[e], static_cast<Acc>(*src));
        }
      }
}

// Reduces into Acc storage initialised with `init`, then converts to the output type Out.
template <typename In, typename Acc, typename Out, typename F>
void reduceTyped(const OpContext& ctx, const ReduceView& v, Acc init, F f) {
  const size_t outCount = static_cast<size_t>(ctx.outputShape(0).count());
  const bool empty = ctx.inputShape(0).count() == 0;
  if constexpr (std::is_same_v<Acc, Out>) {
    Out* out = ctx.output<Out>(0);
    std::fill(out, out + outCount, init);
    if (!empty) fold(ctx.input<In>(0), out, v, f);
  } else {
    std::vector<Acc> acc(outCount, init);
    if (!empty) fold(ctx.input<In>(0), acc.data(), v, f);
    Out* out = ctx.output<Out>(0);
    for (size_t i = 0; i < outCount; ++i) out[i] = static_cast<Out>(acc[i]);
  }
}

struct Sum {
  float operator()(float a, float b) const { return a + b; }
};
struct Prod {
  // Zero wins over infinity (0 * inf would be NaN), as in the reference.
  float operator()(float a, float b) const { return (a == 0.f || b == 0.f) ? 0.f : a * b; }
};
struct Max {
  template <typename T>
  T operator()(T a, T b) const { return std::max(a, b); }
};
struct Min {
  template <typename T>
  T operator()(T a, T b) const { return std::min(a, b); }
};

template <typename F>
Status reduceFloat(const OpContext& ctx, const ReduceView& v, float init, F f) {
  if (ctx.inputType(0) == kF32) reduceTyped<float, float, float>(ctx, v, init, f);
  else reduceTyped<Half, float, Half>(ctx, v, init, f);
  return kOk;
}

template <typename F>
Status reduceMinMax(OpContext& ctx, const ReduceView& v, bool isMax, F f) {
  switch (ctx.inputType(0)) {
    case OperandType::TENSOR_FLOAT32:
    case OperandType::TENSOR_FLOAT16: {
      // The identity is the most extreme finite value of the type, as in the reference
      // (so an all -inf input reduces to lowest(), and an empty one too).
      const bool f16 = ctx.inputType(0) == kF16;
      const float lowest = f16 ? -65504.f : std::numeric_limits<float>::lowest();
      const float highest = f16 ? 65504.f : std::numeric_limits<float>::max();
      return reduceFloat(ctx, v, isMax ? lowest : highest, f);
    }
    case OperandType::TENSOR_QUANT8_ASYMM:
      reduceTyped<uint8_t, uint8_t, uint8_t>(ctx, v, isMax ? uint8_t(0) : uint8_t(255), f);
      return kOk;
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      reduceTyped<int8_t, int8_t, int8_t>(ctx, v, isMax ? int8_t(-128) : int8_t(127), f);
      return kOk;
    default:
      return ctx.fail("unsupported input type %s", toString(ctx.inputType(0)));
  }
}

Status execute(OpContext& ctx) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  std::vector<bool> reduced;
  NN_RETURN_IF_ERROR(reduce_ops::resolveReducedAxes(ctx, &reduced));
  const ReduceView v = makeView(ctx.inputShape(0).dims, reduced);
  switch (ctx.type()) {
    case OperationType::REDUCE_SUM:
      return reduceFloat(ctx, v, 0.f, Sum{});
    case OperationType::REDUCE_PROD:
      return reduceFloat(ctx, v, 1.f, Prod{});
    case OperationType::REDUCE_MAX:
      return reduceMinMax(ctx, v, true, Max{});
    case OperationType::REDUCE_MIN:
      return reduceMinMax(ctx, v, false, Min{});
    case OperationType::REDUCE_ALL:
      reduceTyped<uint8_t, uint8_t, uint8_t>(
          ctx, v, uint8_t(1), [](uint8_t a, uint8_t b) { return uint8_t(a && b); });
      return kOk;
    case OperationType::REDUCE_ANY:
      reduceTyped<uint8_t, uint8_t, uint8_t>(
          ctx, v, uint8_t(0), [](uint8_t a, uint8_t b) { return uint8_t(a || b); });
      return kOk;
    default:
      return ctx.fail("not a reduction");
  }
}

}  // namespace

NN_DEFINE_CPU_KERNEL(REDUCE_ALL, execute);
NN_DEFINE_CPU_KERNEL(REDUCE_ANY, execute);
NN_DEFINE_CPU_KERNEL(REDUCE_MAX, execute);
NN_DEFINE_CPU_KERNEL(REDUCE_MIN, execute);
NN_DEFINE_CPU_KERNEL(REDUCE_PROD, execute);
NN_DEFINE_CPU_KERNEL(REDUCE_SUM, execute);

}  // namespace nn
