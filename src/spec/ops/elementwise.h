// Shape rules shared by the elementwise, activation and normalization operations (and the
// axis handling of the data-movement ones): type predicates, numpy-style broadcasting, axis
// resolution and outer/axis/inner splitting, float scalar reading. The CPU kernels' loops are in cpu/kernels/elementwise.h.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>

#include "spec/operation.h"

namespace nn {
namespace elementwise {

// Broadcast outputs are limited to this rank (the kernels' iteration plan is fixed-size).
constexpr uint32_t kMaxBroadcastRank = 8;

inline bool isQuant8(OperandType t) {
  return t == OperandType::TENSOR_QUANT8_ASYMM || t == OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
}
inline bool isFloat(OperandType t) {
  return t == OperandType::TENSOR_FLOAT32 || t == OperandType::TENSOR_FLOAT16;
}

// numpy-style broadcast of two shapes. A 0 dimension is compatible with 0 or 1 and gives 0.
inline bool broadcastShapes(const Dims& a, const Dims& b, Dims* out) {
  const size_t rank = std::max(a.size(), b.size());
  out->assign(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    const uint32_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const uint32_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da == db || db == 1) {
      (*out)[i] = da;
    } else if (da == 1) {
      (*out)[i] = db;
    } else {
      return false;
    }
  }
  return true;
}

// Rejects model shapes that are fully known on both sides and can never broadcast.
inline Status checkBroadcastable(ValidationContext& c, uint32_t i0, uint32_t i1) {
  const Dims& d1 = c.input(i0).dimensions;
  const Dims& d2 = c.input(i1).dimensions;
  if (d1.empty() || d2.empty()) return kOk;
  const size_t rank = std::max(d1.size(), d2.size());
  for (size_t i = 0; i < rank; ++i) {
    const uint32_t a = i < rank - d1.size() ? 1 : d1[i - (rank - d1.size())];
    const uint32_t b = i < rank - d2.size() ? 1 : d2[i - (rank - d2.size())];
    if (a != 0 && b != 0 && a != b && a != 1 && b != 1)
      return c.fail("inputs %u %s and %u %s are not broadcast-compatible (dimension %zu: %u vs %u)",
                    i0, toString(d1).c_str(), i1, toString(d2).c_str(), i, a, b);
  }
  return kOk;
}

// Output `output` = broadcast of inputs i0 and i1 (ranks <= kMaxBroadcastRank).
inline Status inferBroadcast(ShapeContext& ctx, uint32_t i0, uint32_t i1, uint32_t output = 0) {
  const Shape& a = ctx.inputShape(i0);
  const Shape& b = ctx.inputShape(i1);
  if (a.rank() > kMaxBroadcastRank || b.rank() > kMaxBroadcastRank)
    return ctx.fail("input ranks must be <= %d, got %u and %u",
                    static_cast<int>(kMaxBroadcastRank), a.rank(), b.rank());
  Dims out;
  if (!broadcastShapes(a.dims, b.dims, &out))
    return ctx.fail("input %u %s and input %u %s are not broadcast-compatible", i0,
                    toString(a.dims).c_str(), i1, toString(b.dims).c_str());
  return ctx.setOutputDims(output, std::move(out));
}

// Output `output` has the dimensions of input `input`.
inline Status inferSameShape(ShapeContext& ctx, uint32_t input = 0, uint32_t output = 0) {
  return ctx.setOutputDims(output, ctx.inputShape(input).dims);
}

// Resolves a possibly negative axis against rank; false when out of [-rank, rank).
inline bool resolveAxis(int32_t axis, uint32_t rank, uint32_t* out) {
  const int64_t r = rank;
  if (axis < -r || axis >= r) return false;
  *out = static_cast<uint32_t>(axis < 0 ? axis + r : axis);
  return true;
}

// outer x axis x inner decomposition of a shape around one axis.
struct AxisSplit {
  size_t outer = 1, axis = 1, inner = 1;
};
inline AxisSplit splitAtAxis(const Dims& dims, uint32_t axis) {
  AxisSplit s;
  for (uint32_t i = 0; i < dims.size(); ++i) {
    if (i < axis) s.outer *= dims[i];
    else if (i == axis) s.axis = dims[i];
    else s.inner *= dims[i];
  }
  return s;
}

// Resolves the optional axis input `axisInput` of input 0 (absent or omitted: the last axis).
// During compilation a non-constant axis is not known yet: *known is then false and *axis
// unset.
inline Status readOptionalAxis(const ShapeContext& ctx, uint32_t axisInput, uint32_t* axis,
                               bool* known) {
  const uint32_t rank = ctx.inputShape(0).rank();
  int32_t a = -1;
  *known = true;
  if (ctx.numInputs() > axisInput && !ctx.isOmitted(axisInput)) {
    if (!ctx.hasInputData(axisInput)) {
      *known = false;
      return kOk;
    }
    a = ctx.scalar<int32_t>(axisInput);
  }
  if (!resolveAxis(a, rank, axis))
    return ctx.fail("input %u: axis %d out of range for rank %u", axisInput, a, rank);
  return kOk;
}

// A FLOAT16 or FLOAT32 scalar input as float (validation ties its type to the tensor's).
inline float floatScalar(const ShapeContext& ctx, uint32_t i) {
  if (ctx.inputType(i) == OperandType::FLOAT16) return static_cast<float>(ctx.scalar<Half>(i));
  return ctx.scalar<float>(i);
}

// The scalar type that goes with a float tensor type.
inline OperandType floatScalarFor(OperandType tensorType) {
  return tensorType == OperandType::TENSOR_FLOAT16 ? OperandType::FLOAT16 : OperandType::FLOAT32;
}

}  // namespace elementwise
}  // namespace nn
