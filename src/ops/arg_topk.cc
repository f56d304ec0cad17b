// ARGMAX / ARGMIN along one axis and TOPK_V2 along the last axis. Comparisons are on the
// stored values: 8-bit quantized tensors order the same as their real values.
// Ties: ARGMAX/ARGMIN report the first index (as the reference); TOPK_V2 lists equal values
// with the larger index first (the spec's rule).
#include <algorithm>

#include "ops/operation.h"
#include "ops/elementwise_util.h"
#include "spec/ops/shape_util.h"

namespace nn {
namespace {

using namespace shape_ops;

constexpr std::initializer_list<TypeSince> kOrderedTypes = {{kF32, kFeatureLevel3},
                                                            {kF16, kFeatureLevel3},
                                                            {kI32, kFeatureLevel3},
                                                            {kQ8, kFeatureLevel3},
                                                            {kQ8S, kFeatureLevel4}};

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

Status validateArgMinMax(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(2, 2));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  c.requireFeatureLevel(kFeatureLevel3);
  NN_RETURN_IF_ERROR(checkTensorTypeSince(c, 0, kOrderedTypes));
  NN_RETURN_IF_ERROR(requirePresent(c, 1));
  NN_RETURN_IF_ERROR(c.checkInputType(1, OperandType::INT32));
  NN_RETURN_IF_ERROR(c.checkOutputTypes({kI32}));
  const int32_t rank = static_cast<int32_t>(c.input(0).dimensions.size());
  int32_t axis = 0;
  if (rank > 0 && c.constantScalar(1, &axis) && (axis < -rank || axis >= rank))
    return c.fail("input 1 (axis) is %d, out of range [%d, %d)", axis, -rank, rank);
  return kOk;
}

Status argAxis(OpContext& ctx, uint32_t* axis) {
  if (!ctx.hasInputData(1)) return kDeferred;
  const Dims& in = ctx.inputShape(0).dims;
  if (in.empty()) return ctx.fail("input 0: rank must be at least 1");
  const int32_t raw = ctx.scalar<int32_t>(1);
  if (!elementwise::resolveAxis(raw, static_cast<uint32_t>(in.size()), axis))
    return ctx.fail("input 1 (axis) is %d, out of range for rank %zu", raw, in.size());
  if (in[*axis] == 0) return ctx.fail("input 0: dimension %u (the reduced axis) is empty", *axis);
  return kOk;
}

Status prepareArgMinMax(OpContext& ctx) {
  uint32_t axis = 0;
  NN_RETURN_IF_ERROR(argAxis(ctx, &axis));
  Dims out = ctx.inputShape(0).dims;
  out.erase(out.begin() + axis);
  if (out.empty()) out.push_back(1);
  return ctx.setOutputDims(0, std::move(out));
}

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
  NN_RETURN_IF_ERROR(argAxis(ctx, &axis));
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

Status validateTopK(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(2, 2));
  NN_RETURN_IF_ERROR(c.checkOutputCount(2));
  c.requireFeatureLevel(kFeatureLevel3);
  NN_RETURN_IF_ERROR(checkTensorTypeSince(c, 0, kOrderedTypes));
  NN_RETURN_IF_ERROR(requirePresent(c, 1));
  NN_RETURN_IF_ERROR(c.checkInputType(1, OperandType::INT32));
  NN_RETURN_IF_ERROR(checkOutputLikeInput(c, 0, 0));
  if (c.outputType(1) != kI32)
    return c.fail("output 1 (indices): expected %s, got %s", toString(kI32),
                  toString(c.outputType(1)));
  int32_t k = 0;
  if (c.constantScalar(1, &k) && k <= 0) return c.fail("input 1 (k) is %d, must be > 0", k);
  return kOk;
}

Status topKParam(OpContext& ctx, uint32_t* k) {
  if (!ctx.hasInputData(1)) return kDeferred;
  const Dims& in = ctx.inputShape(0).dims;
  if (in.empty()) return ctx.fail("input 0: rank must be at least 1");
  const int32_t raw = ctx.scalar<int32_t>(1);
  if (raw <= 0 || static_cast<uint32_t>(raw) > in.back())
    return ctx.fail("input 1 (k) is %d, must be in [1, %u] (the last dimension)", raw, in.back());
  *k = static_cast<uint32_t>(raw);
  return kOk;
}

Status prepareTopK(OpContext& ctx) {
  uint32_t k = 0;
  NN_RETURN_IF_ERROR(topKParam(ctx, &k));
  Dims out = ctx.inputShape(0).dims;
  out.back() = k;
  NN_RETURN_IF_ERROR(ctx.setOutputDims(0, out));
  return ctx.setOutputDims(1, std::move(out));
}

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
  NN_RETURN_IF_ERROR(topKParam(ctx, &k));
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

NN_REGISTER_OPERATION(ARGMAX, validateArgMinMax, prepareArgMinMax, executeArgMinMax);
NN_REGISTER_OPERATION(ARGMIN, validateArgMinMax, prepareArgMinMax, executeArgMinMax);
NN_REGISTER_OPERATION(TOPK_V2, validateTopK, prepareTopK, executeTopK);

}  // namespace nn
