// Pieces shared by the tensor-rearranging and reducing operations (MEAN, REDUCE_*, PAD,
// TRANSPOSE, STRIDED_SLICE): their common validation prologue and the axes handling of
// MEAN and REDUCE_* (shape inference and the CPU kernels both resolve the axes).
#pragma once

#include <cstring>
#include <vector>

#include "spec/operation.h"
#include "spec/ops/shape_util.h"

namespace nn {
namespace reduce_ops {

// Input/output counts, then input 0: float32 / quant8 asymm since FL2, float16 since FL3,
// quant8 asymm signed since FL4, rank at most 4.
inline Status validateDataTensorOp(ValidationContext& c, uint32_t minInputs, uint32_t maxInputs) {
  using namespace shape_ops;
  NN_RETURN_IF_ERROR(c.checkInputCount(minInputs, maxInputs));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  c.requireFeatureLevel(kFeatureLevel2);
  NN_RETURN_IF_ERROR(checkTensorTypeSince(
      c, 0, {{kF32, kFeatureLevel2}, {kQ8, kFeatureLevel2}, {kF16, kFeatureLevel3},
             {kQ8S, kFeatureLevel4}}));
  return c.checkInputRankAtMost(0, 4);
}

// Inputs 1 (axes, 1-D TENSOR_INT32) and 2 (keep_dims, of `keepDimsType`), an output typed
// like input 0, and constant axes within [-rank, rank) when the rank is known.
inline Status validateAxesInputs(ValidationContext& c, OperandType keepDimsType) {
  using namespace shape_ops;
  NN_RETURN_IF_ERROR(requirePresent(c, 1));
  NN_RETURN_IF_ERROR(c.checkInputType(1, kI32));
  NN_RETURN_IF_ERROR(c.checkInputRank(1, 1));
  NN_RETURN_IF_ERROR(requirePresent(c, 2));
  NN_RETURN_IF_ERROR(c.checkInputType(2, keepDimsType));
  NN_RETURN_IF_ERROR(checkOutputLikeInput(c, 0, 0));
  const int32_t rank = static_cast<int32_t>(c.input(0).dimensions.size());
  if (rank > 0) {
    if (const void* p = c.constantData(1)) {
      const size_t n = c.input(1).location.length / sizeof(int32_t);
      for (size_t i = 0; i < n; ++i) {
        int32_t v;
        memcpy(&v, static_cast<const uint8_t*>(p) + i * 4, 4);
        if (v < -rank || v >= rank)
          return c.fail("input 1 (axes): entry %zu is %d, out of range [%d, %d)", i, v, -rank,
                        rank);
      }
    }
  }
  return kOk;
}

// reduced[i] is true for every dimension of input 0 named by input 1 (negative axes count from
// the end; duplicates collapse). kDeferred until inputs 1 and 2 have values.
inline Status resolveReducedAxes(const ShapeContext& ctx, std::vector<bool>* reduced) {
  if (!ctx.hasInputData(1) || !ctx.hasInputData(2)) return kDeferred;
  const int32_t rank = static_cast<int32_t>(ctx.inputShape(0).rank());
  if (rank > 4) return ctx.fail("input 0: rank %d exceeds the maximum 4", rank);
  if (ctx.inputShape(1).rank() != 1)
    return ctx.fail("input 1 (axes): expected a 1-D tensor, got rank %u", ctx.inputShape(1).rank());
  reduced->assign(rank, false);
  for (int32_t a : shape_ops::readInt32Vector(ctx, 1)) {
    if (a < -rank || a >= rank)
      return ctx.fail("input 1 (axes): axis %d is out of range [%d, %d)", a, -rank, rank);
    (*reduced)[a < 0 ? a + rank : a] = true;
  }
  return kOk;
}

// Output 0 = input 0 with the reduced dimensions dropped (or kept as 1); a full reduction
// without keep_dims gives [1].
inline Status setReducedOutputDims(ShapeContext& ctx, const std::vector<bool>& reduced,
                                   bool keepDims) {
  const Dims& in = ctx.inputShape(0).dims;
  Dims out;
  for (size_t i = 0; i < in.size(); ++i) {
    if (!reduced[i]) out.push_back(in[i]);
    else if (keepDims) out.push_back(1);
  }
  if (out.empty()) out.push_back(1);
  return ctx.setOutputDims(0, std::move(out));
}

}  // namespace reduce_ops
}  // namespace nn
