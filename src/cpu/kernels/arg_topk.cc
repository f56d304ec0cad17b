// ARGMAX / ARGMIN and TOPK_V2 kernels. Comparisons are on the stored values: 8-bit quantized
// tensors order the same as their real values.
// Ties: ARGMAX/ARGMIN report the first index (as the reference); TOPK_V2 lists equal values
// with the larger index first (the spec's rule).
#include <algorithm>
#include <type_traits>
#include <utility>
#include <vector>

#include "cpu/kernel.h"
#include "spec/ops/arg_topk.h"
#include "spec/ops/elementwise.h"

namespace nn {
namespace {

// Runs fn(T{}) with the C++ type of an ordered tensor type.
template <typename F>
Status withOrderedType(OpContext& ctx, OperandType type, F&& fn) {
  switch (type) {
    case OperandType::TENSOR_FLOAT32: return fn(float{});
    case OperandType::TENSOR_FLOAT16: return fn(Half{});
    case OperandType::TENSOR_INT32: return fn(int32_t{});
    case OperandType::TENSOR_QUANT8_ASYMM: return fn(uint8_t{});
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED: return fn(int8_t{});
    default: return ctx.fail("unsupported input type %s", toString(type));
  }
}

// ---- ARGMAX / ARGMIN --------------------------------------------------------------------

template <typename T, bool kMin>
void argMinMax(const T* in, const elementwise::AxisSplit& s, int32_t* out) {
  for (size_t outer = 0; outer < s.outer; ++outer) {
    const T* base = in + outer * s.axis * s.inner;
    for (size_t inner = 0; inner < s.inner; ++inner) {
      T best = base[inner];
      int32_t bestIndex = 0;
      for (size_t i = 1; i < s.axis; ++i) {
        const T v = base[i * s.inner + inner];
        if (kMin ? v < best : v > best) {
          best = v;
          bestIndex = static_cast<int32_t>(i);
        }
      }
      *out++ = bestIndex;
    }
  }
}

Status executeArgMinMax(OpContext& ctx) {
  uint32_t axis = 0;
  NN_RETURN_IF_ERROR(arg_topk::resolveArgAxis(ctx, &axis));
  if (ctx.outputShape(0).count() == 0) return kOk;
  const elementwise::AxisSplit s = elementwise::splitAtAxis(ctx.inputShape(0).dims, axis);
  const bool isMin = ctx.type() == OperationType::ARGMIN;
  return withOrderedType(ctx, ctx.inputType(0), [&](auto zero) {
    using T = decltype(zero);
    if (isMin) argMinMax<T, true>(ctx.input<T>(0), s, ctx.output<int32_t>(0));
    else argMinMax<T, false>(ctx.input<T>(0), s, ctx.output<int32_t>(0));
    return kOk;
  });
}

// ---- TOPK_V2 ----------------------------------------------------------------------------

template <typename T>
void topK(const T* in, size_t rows, size_t rowSize, size_t k, T* values, int32_t* indices) {
  std::vector<std::pair<T, int32_t>> row(rowSize);
  // NaN sorts above every number so the order stays a strict weak ordering.
  const auto greater = [](T x, T y) {
    if constexpr (std::is_integral_v<T>) {
      return x > y;
    } else {
      const bool xn = x != x, yn = y != y;
      return xn ? !yn : (!yn && x > y);
    }
  };
  const auto before = [&](const std::pair<T, int32_t>& a, const std::pair<T, int32_t>& b) {
    if (greater(a.first, b.first)) return true;
    if (greater(b.first, a.first)) return false;
    return a.second > b.second;
  };
  for (size_t r = 0; r < rows; ++r, in += rowSize) {
    for (size_t i = 0; i < rowSize; ++i) row[i] = {in[i], static_cast<int32_t>(i)};
    std::partial_sort(row.begin(), row.begin() + k, row.end(), before);
    for (size_t i = 0; i < k; ++i) {
      *values++ = row[i].first;
      *indices++ = row[i].second;
    }
  }
}

Status executeTopK(OpContext& ctx) {
  uint32_t k = 0;
  NN_RETURN_IF_ERROR(arg_topk::resolveTopK(ctx, &k));
  const Shape& in = ctx.inputShape(0);
  if (in.count() == 0) return kOk;
  const size_t rowSize = in.dims.back();
  const size_t rows = static_cast<size_t>(in.count()) / rowSize;
  return withOrderedType(ctx, in.type, [&](auto zero) {
    using T = decltype(zero);
    topK(ctx.input<T>(0), rows, rowSize, k, ctx.output<T>(0), ctx.output<int32_t>(1));
    return kOk;
  });
}

}  // namespace

NN_DEFINE_CPU_KERNEL(ARGMAX, executeArgMinMax);
NN_DEFINE_CPU_KERNEL(ARGMIN, executeArgMinMax);
NN_DEFINE_CPU_KERNEL(TOPK_V2, executeTopK);

}  // namespace nn
