// TRANSPOSE: signature, permutation and output shape (input dimensions permuted).
#include "spec/ops/transpose.h"

#include "spec/ops/reduce_util.h"

namespace nn {
namespace transpose_ops {

Status readPerm(const ShapeContext& ctx, std::vector<int32_t>* perm) {
  const uint32_t rank = ctx.inputShape(0).rank();
  perm->resize(rank);
  if (ctx.numInputs() < 2 || ctx.isOmitted(1)) {
    for (uint32_t i = 0; i < rank; ++i) (*perm)[i] = static_cast<int32_t>(rank - 1 - i);
    return kOk;
  }
  if (!ctx.hasInputData(1)) return kDeferred;
  const Shape& p = ctx.inputShape(1);
  if (p.rank() != 1 || p.dims[0] != rank)
    return ctx.fail("input 1 (perm): expected shape [%u], got %s", rank, toString(p.dims).c_str());
  *perm = shape_ops::readInt32Vector(ctx, 1);
  std::vector<bool> seen(rank, false);
  for (uint32_t i = 0; i < rank; ++i) {
    const int32_t v = (*perm)[i];
    if (v < 0 || v >= static_cast<int32_t>(rank))
      return ctx.fail("input 1 (perm): entry %u is %d, out of range [0, %u)", i, v, rank);
    if (seen[v]) return ctx.fail("input 1 (perm): %d appears twice; not a permutation", v);
    seen[v] = true;
  }
  return kOk;
}

}  // namespace transpose_ops

namespace {

using namespace shape_ops;

Status validate(ValidationContext& c) {
  NN_RETURN_IF_ERROR(reduce_ops::validateDataTensorOp(c, 1, 2));
  if (hasOptionalInput(c, 1)) {
    NN_RETURN_IF_ERROR(c.checkInputType(1, kI32));
    NN_RETURN_IF_ERROR(c.checkInputRank(1, 1));
  }
  return checkOutputLikeInput(c, 0, 0);
}

Status inferShapes(ShapeContext& ctx) {
  const Dims& in = ctx.inputShape(0).dims;
  if (in.size() > 4) return ctx.fail("input 0: rank %zu exceeds the maximum 4", in.size());
  std::vector<int32_t> perm;
  NN_RETURN_IF_ERROR(transpose_ops::readPerm(ctx, &perm));
  Dims out(in.size());
  for (size_t i = 0; i < in.size(); ++i) out[i] = in[perm[i]];
  return ctx.setOutputDims(0, std::move(out));
}

}  // namespace

// perm (input 1): omitted reverses the axes.
NN_DEFINE_OPERATION_SPEC_OPTIONAL(TRANSPOSE, validate, inferShapes, {1});

}  // namespace nn
