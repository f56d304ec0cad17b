// Helpers shared by the second elementwise family (comparison, logical, unary math,
// binary_ext, cast/quantize, activation_ext): type predicates, broadcast validation and
// preparation, the reference's float requantization, and broadcast dispatch that picks the
// reference or the planned kernel.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#include "spec/ops/common.h"
#include "ops/elementwise_util.h"
#include "ops/operation.h"

namespace nn {
namespace ew2 {

inline bool isQuant8(OperandType t) {
  return t == OperandType::TENSOR_QUANT8_ASYMM || t == OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
}
inline bool isFloat(OperandType t) {
  return t == OperandType::TENSOR_FLOAT32 || t == OperandType::TENSOR_FLOAT16;
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

// Output dims = broadcast of inputs i0 and i1 (rank <= BroadcastPlan::kMaxRank).
inline Status prepareBroadcast(OpContext& ctx, uint32_t i0, uint32_t i1, uint32_t output = 0) {
  const Shape& a = ctx.inputShape(i0);
  const Shape& b = ctx.inputShape(i1);
  if (a.rank() > elementwise::BroadcastPlan::kMaxRank ||
      b.rank() > elementwise::BroadcastPlan::kMaxRank)
    return ctx.fail("input ranks must be <= %d, got %u and %u",
                    elementwise::BroadcastPlan::kMaxRank, a.rank(), b.rank());
  Dims out;
  if (!elementwise::broadcastShapes(a.dims, b.dims, &out))
    return ctx.fail("input %u %s and input %u %s are not broadcast-compatible", i0,
                    toString(a.dims).c_str(), i1, toString(b.dims).c_str());
  return ctx.setOutputDims(output, std::move(out));
}

inline Status prepareSameShape(OpContext& ctx, uint32_t input = 0, uint32_t output = 0) {
  return ctx.setOutputDims(output, ctx.inputShape(input).dims);
}

// The reference's requantization of one value between two quantized scales: the real value
// is a float product, the division and zero point add happen in double, then round.
template <typename T>
inline T requantize(T value, const Shape& from, const Shape& to) {
  const double real = static_cast<float>(static_cast<int32_t>(value) - from.zeroPoint) * from.scale;
  const double q = real / to.scale + to.zeroPoint;
  if (q < static_cast<double>(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
  if (q > static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
  return static_cast<T>(std::round(q));
}

// out[i] = f(a[ia], b[ib]) over the broadcast output of inputs i0, i1.
template <typename TA, typename TO, typename F>
inline void runBroadcast(const OpContext& ctx, uint32_t i0, uint32_t i1, const F& f) {
  const TA* a = ctx.input<TA>(i0);
  const TA* b = ctx.input<TA>(i1);
  TO* out = ctx.output<TO>(0);
  if (ctx.useReferenceKernels()) {
    elementwise::binaryBroadcastReference(a, ctx.inputShape(i0).dims, b, ctx.inputShape(i1).dims,
                                          out, ctx.outputShape(0).dims, f);
  } else {
    elementwise::binaryBroadcast(ctx, a, ctx.inputShape(i0).dims, b, ctx.inputShape(i1).dims, out,
                                 ctx.outputShape(0).dims, f);
  }
}

// out[i] = f(in[i]) over input 0 (same element count as output 0).
template <typename TI, typename TO, typename F>
inline void runUnary(const OpContext& ctx, const F& f) {
  const TI* in = ctx.input<TI>(0);
  TO* out = ctx.output<TO>(0);
  elementwise::parallelRange(ctx, ctx.inputShape(0).count(), [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) out[i] = f(in[i]);
  });
}

}  // namespace ew2
}  // namespace nn
