// CONCATENATION: signature (8-bit inputs may differ in quantization from the output since
// API level 29) and output shape (the inputs' sizes summed along the axis).
#include "spec/operation.h"
#include "spec/ops/shape_util.h"

namespace nn {
namespace {

using namespace shape_ops;

bool sameQuant(const Operand& a, const Operand& b) {
  return a.scale == b.scale && a.zeroPoint == b.zeroPoint;
}

Status validate(ValidationContext& c) {
  if (c.numInputs() < 2) return c.fail("expected at least 2 inputs (tensors + axis), got %u",
                                       c.numInputs());
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  const uint32_t n = c.numInputs() - 1;
  NN_RETURN_IF_ERROR(checkTensorTypeSince(
      c, 0, {{kF32, kFeatureLevel1}, {kQ8, kFeatureLevel1}, {kF16, kFeatureLevel3},
             {kQ8S, kFeatureLevel4}}));
  const OperandType type = c.inputType(0);
  size_t rank = c.input(0).dimensions.size();
  for (uint32_t i = 0; i < n; ++i) {
    NN_RETURN_IF_ERROR(requirePresent(c, i));
    if (c.inputType(i) != type)
      return c.fail("input %u: type %s differs from input 0 type %s", i, toString(c.inputType(i)),
                    toString(type));
    NN_RETURN_IF_ERROR(c.checkInputRankAtMost(i, 4));
    const size_t r = c.input(i).dimensions.size();
    if (r != 0 && rank != 0 && r != rank)
      return c.fail("input %u: rank %zu differs from input 0 rank %zu", i, r, rank);
    if (rank == 0) rank = r;
  }
  NN_RETURN_IF_ERROR(requirePresent(c, n));
  NN_RETURN_IF_ERROR(c.checkInputType(n, OperandType::INT32));
  NN_RETURN_IF_ERROR(checkOutputLikeInput(c, 0, 0, /*requireSameQuant=*/false));
  if (type == kQ8) {
    // Before API level 29 every quant8 input had to share the output's scale and zero point.
    for (uint32_t i = 0; i < n; ++i)
      if (!sameQuant(c.input(i), c.output(0))) c.requireFeatureLevel(kFeatureLevel3);
  }
  int32_t axis;
  if (c.constantScalar(n, &axis)) {
    if (axis < 0) c.requireFeatureLevel(kFeatureLevel3);
    if (rank != 0 && (axis < -static_cast<int32_t>(rank) || axis >= static_cast<int32_t>(rank)))
      return c.fail("input %u (axis): %d is out of range [%d, %zu)", n, axis,
                    -static_cast<int32_t>(rank), rank);
  }
  return kOk;
}

Status inferShapes(ShapeContext& ctx) {
  const uint32_t n = ctx.numInputs() - 1;
  if (!ctx.hasInputData(n)) return kDeferred;
  const Dims& first = ctx.inputShape(0).dims;
  const int32_t rank = static_cast<int32_t>(first.size());
  if (rank == 0) return ctx.fail("input 0: concatenation needs a tensor of rank >= 1");
  if (rank > 4) return ctx.fail("input 0: rank %d exceeds the maximum 4", rank);
  int32_t axis = ctx.scalar<int32_t>(n);
  if (axis < -rank || axis >= rank)
    return ctx.fail("input %u (axis): %d is out of range [%d, %d)", n, axis, -rank, rank);
  if (axis < 0) axis += rank;
  Dims out = first;
  uint64_t sum = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const Dims& d = ctx.inputShape(i).dims;
    if (d.size() != first.size())
      return ctx.fail("input %u: rank %zu differs from input 0 rank %d", i, d.size(), rank);
    for (int32_t k = 0; k < rank; ++k) {
      if (k != axis && d[k] != first[k])
        return ctx.fail("input %u: dimension %d is %u but input 0 has %u (only axis %d may differ)",
                        i, k, d[k], first[k], axis);
    }
    sum += d[axis];
  }
  if (sum > UINT32_MAX) return ctx.fail("concatenated dimension %llu is too large",
                                        (unsigned long long)sum);
  out[axis] = static_cast<uint32_t>(sum);
  return ctx.setOutputDims(0, std::move(out));
}

}  // namespace

NN_DEFINE_OPERATION_SPEC(CONCATENATION, validate, inferShapes);

}  // namespace nn
