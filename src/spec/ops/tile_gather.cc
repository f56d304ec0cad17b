// TILE, GATHER and EXPAND_DIMS: signatures and shapes. Kernels: cpu/kernels/tile_gather.cc.
#include "spec/operation.h"
#include "spec/ops/dim_math.h"
#include "spec/ops/elementwise.h"
#include "spec/ops/shape_util.h"
#include "spec/ops/tile_gather.h"

namespace nn {
namespace {

using namespace shape_ops;

constexpr std::initializer_list<TypeSince> kMovableTypes = {{kF32, kFeatureLevel3},
                                                            {kF16, kFeatureLevel3},
                                                            {kI32, kFeatureLevel3},
                                                            {kQ8, kFeatureLevel3},
                                                            {kQ8S, kFeatureLevel4}};

// ---- TILE -------------------------------------------------------------------------------

Status validateTile(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(2, 2));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  c.requireFeatureLevel(kFeatureLevel3);
  NN_RETURN_IF_ERROR(checkTensorTypeSince(c, 0, kMovableTypes));
  NN_RETURN_IF_ERROR(requirePresent(c, 1));
  NN_RETURN_IF_ERROR(c.checkInputType(1, kI32));
  NN_RETURN_IF_ERROR(c.checkInputRank(1, 1));
  return checkOutputLikeInput(c, 0, 0);
}

// Each dimension times its multiple.
Status inferTile(ShapeContext& ctx) {
  std::vector<int32_t> multiples;
  NN_RETURN_IF_ERROR(tile_gather::readMultiples(ctx, &multiples));
  const Dims& in = ctx.inputShape(0).dims;
  Dims out(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    if (multiples[i] < 0 || !dim_math::productDim({in[i], uint64_t(multiples[i])}, &out[i]))
      return ctx.fail("input 1 (multiples): dimension %zu (%u) times %d does not fit a 32-bit "
                      "dimension",
                      i, in[i], multiples[i]);
  }
  return ctx.setOutputDims(0, std::move(out));
}

// ---- GATHER -----------------------------------------------------------------------------

Status validateGather(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(3, 3));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  c.requireFeatureLevel(kFeatureLevel3);
  NN_RETURN_IF_ERROR(checkTensorTypeSince(c, 0, kMovableTypes));
  NN_RETURN_IF_ERROR(requirePresent(c, 1));
  NN_RETURN_IF_ERROR(c.checkInputType(1, OperandType::INT32));
  NN_RETURN_IF_ERROR(requirePresent(c, 2));
  NN_RETURN_IF_ERROR(c.checkInputType(2, kI32));
  NN_RETURN_IF_ERROR(checkOutputLikeInput(c, 0, 0));
  const int32_t rank = static_cast<int32_t>(c.input(0).dimensions.size());
  int32_t axis = 0;
  if (rank > 0 && c.constantScalar(1, &axis) && (axis < -rank || axis >= rank))
    return c.fail("input 1 (axis) is %d, out of range [%d, %d)", axis, -rank, rank);
  return kOk;
}

// The input's shape with the gathered axis replaced by the indices' shape.
Status inferGather(ShapeContext& ctx) {
  uint32_t axis = 0;
  NN_RETURN_IF_ERROR(tile_gather::resolveGatherAxis(ctx, &axis));
  const Dims& in = ctx.inputShape(0).dims;
  const Dims& idx = ctx.inputShape(2).dims;
  Dims out(in.begin(), in.begin() + axis);
  out.insert(out.end(), idx.begin(), idx.end());
  out.insert(out.end(), in.begin() + axis + 1, in.end());
  return ctx.setOutputDims(0, std::move(out));
}

// ---- EXPAND_DIMS ------------------------------------------------------------------------

Status validateExpandDims(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(2, 2));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  c.requireFeatureLevel(kFeatureLevel3);
  NN_RETURN_IF_ERROR(checkTensorTypeSince(c, 0, kMovableTypes));
  NN_RETURN_IF_ERROR(requirePresent(c, 1));
  NN_RETURN_IF_ERROR(c.checkInputType(1, OperandType::INT32));
  NN_RETURN_IF_ERROR(checkOutputLikeInput(c, 0, 0));
  const int32_t rank = static_cast<int32_t>(c.input(0).dimensions.size());
  int32_t axis = 0;
  if (rank > 0 && c.constantScalar(1, &axis) && (axis < -(rank + 1) || axis > rank))
    return c.fail("input 1 (axis) is %d, out of range [%d, %d)", axis, -(rank + 1), rank + 1);
  return kOk;
}

// The input's shape with a 1 inserted at the axis (in [-(rank + 1), rank]).
Status inferExpandDims(ShapeContext& ctx) {
  if (!ctx.hasInputData(1)) return kDeferred;
  Dims out = ctx.inputShape(0).dims;
  const int32_t raw = ctx.scalar<int32_t>(1);
  uint32_t axis = 0;
  if (!elementwise::resolveAxis(raw, static_cast<uint32_t>(out.size()) + 1, &axis))
    return ctx.fail("input 1 (axis) is %d, out of range [%d, %zu)", raw,
                    -static_cast<int32_t>(out.size()) - 1, out.size() + 1);
  out.insert(out.begin() + axis, 1u);
  return ctx.setOutputDims(0, std::move(out));
}

}  // namespace

NN_DEFINE_OPERATION_SPEC(TILE, validateTile, inferTile);
NN_DEFINE_OPERATION_SPEC(GATHER, validateGather, inferGather);
NN_DEFINE_OPERATION_SPEC(EXPAND_DIMS, validateExpandDims, inferExpandDims);

}  // namespace nn
