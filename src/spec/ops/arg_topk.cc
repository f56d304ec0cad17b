// ARGMAX / ARGMIN along one axis and TOPK_V2 along the last axis: signatures and shapes.
// Kernels: cpu/kernels/arg_topk.cc.
#include "spec/operation.h"
#include "spec/ops/arg_topk.h"
#include "spec/ops/shape_util.h"

namespace nn {
namespace {

using namespace shape_ops;

constexpr std::initializer_list<TypeSince> kOrderedTypes = {{kF32, kFeatureLevel3},
                                                            {kF16, kFeatureLevel3},
                                                            {kI32, kFeatureLevel3},
                                                            {kQ8, kFeatureLevel3},
                                                            {kQ8S, kFeatureLevel4}};

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

// The input's shape without the reduced axis ([1] when nothing remains).
Status inferArgMinMax(ShapeContext& ctx) {
  uint32_t axis = 0;
  NN_RETURN_IF_ERROR(arg_topk::resolveArgAxis(ctx, &axis));
  Dims out = ctx.inputShape(0).dims;
  out.erase(out.begin() + axis);
  if (out.empty()) out.push_back(1);
  return ctx.setOutputDims(0, std::move(out));
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

// Values and indices: the input's shape with the last dimension replaced by k.
Status inferTopK(ShapeContext& ctx) {
  uint32_t k = 0;
  NN_RETURN_IF_ERROR(arg_topk::resolveTopK(ctx, &k));
  Dims out = ctx.inputShape(0).dims;
  out.back() = k;
  NN_RETURN_IF_ERROR(ctx.setOutputDims(0, out));
  return ctx.setOutputDims(1, std::move(out));
}

}  // namespace

NN_DEFINE_OPERATION_SPEC(ARGMAX, validateArgMinMax, inferArgMinMax);
NN_DEFINE_OPERATION_SPEC(ARGMIN, validateArgMinMax, inferArgMinMax);
NN_DEFINE_OPERATION_SPEC(TOPK_V2, validateTopK, inferTopK);

}  // namespace nn
