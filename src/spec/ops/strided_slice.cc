// STRIDED_SLICE with TensorFlow semantics: negative indices count from the end,
// out-of-range begin/end are clamped, masks select the full range, negative strides walk
// backwards, and shrink_axis_mask drops dimensions that must select exactly one element.
// Signature, slice geometry and output shape.
#include "spec/ops/strided_slice.h"

#include <algorithm>

#include "spec/ops/reduce_util.h"

namespace nn {
namespace strided_slice {
namespace {

int32_t positiveRemainder(int32_t a, int32_t b) { return (b + a % b) % b; }

// Normalizes an index into [0, dim] for positive strides or [-1, dim - 1] for negative ones.
int32_t clampIndex(int32_t index, int32_t dim, bool positive) {
  if (positive) {
    if (index >= dim) return dim;
    return positiveRemainder(std::min(std::max(index, -dim), dim), dim);
  }
  if (index < -dim) return -1;
  return positiveRemainder(std::min(std::max(index, -dim), dim - 1), dim);
}

}  // namespace

Status computeSlice(const ShapeContext& ctx, SliceParams* sp, Dims* outDims) {
  for (uint32_t i = 1; i <= 6; ++i)
    if (!ctx.hasInputData(i)) return kDeferred;
  const Dims& in = ctx.inputShape(0).dims;
  const uint32_t rank = static_cast<uint32_t>(in.size());
  if (rank > 4) return ctx.fail("input 0: rank %u exceeds the maximum 4", rank);
  static const char* const kNames[] = {"", "begin", "end", "strides"};
  for (uint32_t i = 1; i <= 3; ++i) {
    const Shape& s = ctx.inputShape(i);
    if (s.rank() != 1 || s.dims[0] != rank)
      return ctx.fail("input %u (%s): expected shape [%u] (the input rank), got %s", i, kNames[i],
                      rank, toString(s.dims).c_str());
  }
  using shape_ops::readInt32Vector;
  const std::vector<int32_t> begin = readInt32Vector(ctx, 1);
  const std::vector<int32_t> end = readInt32Vector(ctx, 2);
  const std::vector<int32_t> strides = readInt32Vector(ctx, 3);
  const int32_t beginMask = ctx.scalar<int32_t>(4);
  const int32_t endMask = ctx.scalar<int32_t>(5);
  const int32_t shrinkMask = ctx.scalar<int32_t>(6);
  sp->rank = rank;
  outDims->clear();
  for (uint32_t i = 0; i < rank; ++i) {
    const int32_t dim = static_cast<int32_t>(in[i]);
    const int32_t stride = strides[i];
    if (stride == 0) return ctx.fail("input 3 (strides): entry %u is 0; must be non-zero", i);
    const bool positive = stride > 0;
    int32_t b, e;
    if (dim == 0) {
      b = 0;
      e = 0;
    } else {
      b = (beginMask & (1 << i)) ? (positive ? 0 : dim - 1) : clampIndex(begin[i], dim, positive);
      e = (endMask & (1 << i)) ? (positive ? dim : -1) : clampIndex(end[i], dim, positive);
    }
    const int64_t span = static_cast<int64_t>(e) - b;
    int64_t n = positive ? (span + stride - 1) / stride : (span + stride + 1) / stride;
    if (n < 0) n = 0;
    if (shrinkMask & (1 << i)) {
      // The reference refuses to shrink an axis walked backwards.
      if (stride < 0)
        return ctx.fail("input 3 (strides): dimension %u has shrink_axis_mask set but a negative "
                        "stride %d",
                        i, stride);
      if (n != 1)
        return ctx.fail("dimension %u: shrink_axis_mask is set but the slice [%d, %d) with stride "
                        "%d selects %lld elements (must be exactly 1)",
                        i, begin[i], end[i], stride, (long long)n);
    } else {
      outDims->push_back(static_cast<uint32_t>(n));
    }
    sp->begin[i] = b;
    sp->end[i] = e;
    sp->stride[i] = stride;
    sp->count[i] = static_cast<uint32_t>(n);
  }
  if (outDims->empty()) outDims->push_back(1);
  return kOk;
}

}  // namespace strided_slice

namespace {

using namespace shape_ops;

Status validate(ValidationContext& c) {
  NN_RETURN_IF_ERROR(reduce_ops::validateDataTensorOp(c, 7, 7));
  for (uint32_t i = 1; i <= 3; ++i) {
    NN_RETURN_IF_ERROR(requirePresent(c, i));
    NN_RETURN_IF_ERROR(c.checkInputType(i, kI32));
    NN_RETURN_IF_ERROR(c.checkInputRank(i, 1));
  }
  for (uint32_t i = 4; i <= 6; ++i) {
    NN_RETURN_IF_ERROR(requirePresent(c, i));
    NN_RETURN_IF_ERROR(c.checkInputType(i, OperandType::INT32));
  }
  NN_RETURN_IF_ERROR(checkOutputLikeInput(c, 0, 0));
  if (const void* p = c.constantData(3)) {
    const size_t n = c.input(3).location.length / sizeof(int32_t);
    for (size_t i = 0; i < n; ++i) {
      int32_t v;
      memcpy(&v, static_cast<const uint8_t*>(p) + i * 4, 4);
      if (v == 0) return c.fail("input 3 (strides): entry %zu is 0; strides must be non-zero", i);
    }
  }
  return kOk;
}

Status inferShapes(ShapeContext& ctx) {
  strided_slice::SliceParams sp;
  Dims out;
  NN_RETURN_IF_ERROR(strided_slice::computeSlice(ctx, &sp, &out));
  return ctx.setOutputDims(0, std::move(out));
}

}  // namespace

NN_DEFINE_OPERATION_SPEC(STRIDED_SLICE, validate, inferShapes);

}  // namespace nn
