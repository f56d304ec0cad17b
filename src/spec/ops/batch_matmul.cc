// BATCH_MATMUL (feature level 6): out[..., i, j] = sum_k lhs[..., i, k] * rhs[..., k, j],
// where adj_x / adj_y transpose the last two dimensions of lhs / rhs first. Batch
// dimensions (ranks 2..4, equal ranks) must match or be 1 (broadcast). Signature, geometry
// and output shape.
#include "spec/ops/batch_matmul.h"

#include <algorithm>

#include "spec/ops/shape_util.h"

namespace nn {
namespace batch_matmul {

Status computeGeometry(const ShapeContext& ctx, MatmulGeometry* g) {
  if (!ctx.hasInputData(kAdjX) || !ctx.hasInputData(kAdjY)) return kDeferred;
  const Dims& l = ctx.inputShape(kLhs).dims;
  const Dims& r = ctx.inputShape(kRhs).dims;
  if (l.size() != r.size())
    return ctx.fail("input ranks differ: lhs %zu, rhs %zu", l.size(), r.size());
  const size_t rank = l.size();
  if (rank < 2 || rank > 4) return ctx.fail("input rank %zu must be in [2, 4]", rank);
  g->adjX = ctx.scalar<uint8_t>(kAdjX) != 0;
  g->adjY = ctx.scalar<uint8_t>(kAdjY) != 0;
  const uint32_t lRows = l[rank - 2], lCols = l[rank - 1];
  const uint32_t rRows = r[rank - 2], rCols = r[rank - 1];
  g->m = g->adjX ? lCols : lRows;
  g->k = g->adjX ? lRows : lCols;
  const uint32_t rk = g->adjY ? rCols : rRows;
  g->n = g->adjY ? rRows : rCols;
  if (g->k != rk)
    return ctx.fail("inner dimensions differ: lhs %s%s gives %u, rhs %s%s gives %u",
                    toString(l).c_str(), g->adjX ? " (adj_x)" : "", g->k, toString(r).c_str(),
                    g->adjY ? " (adj_y)" : "", rk);
  g->outDims.assign(rank, 0);
  const size_t batchRank = rank - 2;
  for (size_t d = 0; d < batchRank; ++d) {
    if (l[d] != r[d] && l[d] != 1 && r[d] != 1)
      return ctx.fail("batch dimension %zu differs: lhs %u, rhs %u (neither is 1)", d, l[d], r[d]);
    g->outDims[d] = std::max(l[d], r[d]);
    if (l[d] == 0 || r[d] == 0) g->outDims[d] = 0;
  }
  g->outDims[rank - 2] = g->m;
  g->outDims[rank - 1] = g->n;
  // Batch offsets, walking the output batch index in row-major order.
  size_t batches = 1;
  for (size_t d = 0; d < batchRank; ++d) batches *= g->outDims[d];
  g->lhsOffset.assign(batches, 0);
  g->rhsOffset.assign(batches, 0);
  const size_t lMat = size_t(lRows) * lCols, rMat = size_t(rRows) * rCols;
  for (size_t b = 0; b < batches; ++b) {
    size_t rem = b, lo = 0, ro = 0, lStride = lMat, rStride = rMat;
    for (size_t d = batchRank; d-- > 0;) {
      const size_t idx = rem % g->outDims[d];
      rem /= g->outDims[d];
      lo += (l[d] == 1 ? 0 : idx) * lStride;
      ro += (r[d] == 1 ? 0 : idx) * rStride;
      lStride *= l[d];
      rStride *= r[d];
    }
    g->lhsOffset[b] = lo;
    g->rhsOffset[b] = ro;
  }
  return kOk;
}

}  // namespace batch_matmul

namespace {

using namespace shape_ops;
using namespace batch_matmul;

Status validate(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(4, 4));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  c.requireFeatureLevel(kFeatureLevel6);
  NN_RETURN_IF_ERROR(checkTensorTypeSince(c, kLhs,
                                          {{kF32, kFeatureLevel6},
                                           {kF16, kFeatureLevel6},
                                           {kI32, kFeatureLevel6},
                                           {kQ8S, kFeatureLevel6}}));
  NN_RETURN_IF_ERROR(requirePresent(c, kRhs));
  if (c.inputType(kRhs) != c.inputType(kLhs))
    return c.fail("input 1 (rhs): type %s differs from input 0 (lhs) type %s",
                  toString(c.inputType(kRhs)), toString(c.inputType(kLhs)));
  for (uint32_t i : {kAdjX, kAdjY}) {
    NN_RETURN_IF_ERROR(requirePresent(c, i));
    NN_RETURN_IF_ERROR(c.checkInputType(i, OperandType::BOOL));
  }
  if (c.outputType(0) != c.inputType(kLhs))
    return c.fail("output 0: type %s differs from the input type %s", toString(c.outputType(0)),
                  toString(c.inputType(kLhs)));
  const size_t lr = c.input(kLhs).dimensions.size(), rr = c.input(kRhs).dimensions.size();
  for (uint32_t i : {kLhs, kRhs}) {
    const size_t r = c.input(i).dimensions.size();
    if (r != 0 && (r < 2 || r > 4))
      return c.fail("input %u: rank %zu must be in [2, 4]", i, r);
  }
  if (lr != 0 && rr != 0 && lr != rr)
    return c.fail("input ranks differ: lhs %zu, rhs %zu", lr, rr);
  return kOk;
}

Status inferShapes(ShapeContext& ctx) {
  MatmulGeometry g;
  NN_RETURN_IF_ERROR(computeGeometry(ctx, &g));
  return ctx.setOutputDims(0, g.outDims);
}

}  // namespace

NN_DEFINE_OPERATION_SPEC(BATCH_MATMUL, validate, inferShapes);

}  // namespace nn
