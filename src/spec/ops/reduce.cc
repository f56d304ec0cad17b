// REDUCE_ALL / ANY / MAX / MIN / PROD / SUM over a set of axes (duplicates allowed):
// signature (the tensor types each reduction accepts) and output shape.
#include "spec/operation.h"
#include "spec/ops/reduce_util.h"

namespace nn {
namespace {

using namespace shape_ops;
using namespace reduce_ops;

constexpr OperandType kB8 = OperandType::TENSOR_BOOL8;

std::initializer_list<TypeSince> reduceTypes(OperationType op) {
  static constexpr std::initializer_list<TypeSince> kBool = {{kB8, kFeatureLevel3}};
  static constexpr std::initializer_list<TypeSince> kFloat = {{kF32, kFeatureLevel3},
                                                              {kF16, kFeatureLevel3}};
  static constexpr std::initializer_list<TypeSince> kMinMax = {{kF32, kFeatureLevel3},
                                                               {kF16, kFeatureLevel3},
                                                               {kQ8, kFeatureLevel3},
                                                               {kQ8S, kFeatureLevel4}};
  switch (op) {
    case OperationType::REDUCE_ALL:
    case OperationType::REDUCE_ANY:
      return kBool;
    case OperationType::REDUCE_MAX:
    case OperationType::REDUCE_MIN:
      return kMinMax;
    default:
      return kFloat;
  }
}

Status validate(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(3, 3));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  c.requireFeatureLevel(kFeatureLevel3);
  NN_RETURN_IF_ERROR(checkTensorTypeSince(c, 0, reduceTypes(c.type())));
  NN_RETURN_IF_ERROR(c.checkInputRankAtMost(0, 4));
  return validateAxesInputs(c, OperandType::BOOL);
}

Status inferShapes(ShapeContext& ctx) {
  std::vector<bool> reduced;
  NN_RETURN_IF_ERROR(resolveReducedAxes(ctx, &reduced));
  const bool keepDims = ctx.scalar<uint8_t>(2) != 0;
  return setReducedOutputDims(ctx, reduced, keepDims);
}

}  // namespace

NN_DEFINE_OPERATION_SPEC(REDUCE_ALL, validate, inferShapes);
NN_DEFINE_OPERATION_SPEC(REDUCE_ANY, validate, inferShapes);
NN_DEFINE_OPERATION_SPEC(REDUCE_MAX, validate, inferShapes);
NN_DEFINE_OPERATION_SPEC(REDUCE_MIN, validate, inferShapes);
NN_DEFINE_OPERATION_SPEC(REDUCE_PROD, validate, inferShapes);
NN_DEFINE_OPERATION_SPEC(REDUCE_SUM, validate, inferShapes);

}  // namespace nn
