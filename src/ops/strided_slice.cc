// STRIDED_SLICE with TensorFlow semantics: negative indices count from the end,
// out-of-range begin/end are clamped, masks select the full range, negative strides walk
// backwards, and shrink_axis_mask drops dimensions that must select exactly one element.
#include "ops/operation.h"
#include "ops/reduce_util.h"

namespace nn {
namespace {

using namespace shape_ops;

Status validateStridedSlice(ValidationContext& c) {
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

// Per-dimension start, exclusive stop and stride after resolving masks and clamping.
struct SliceParams {
  int32_t begin[4], end[4], stride[4];
  uint32_t count[4];
  uint32_t rank;
};

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

Status computeSlice(OpContext& ctx, SliceParams* sp, Dims* outDims) {
  for (uint32_t i = 1; i <= 6; ++i)
    if (!ctx.hasInputData(i)) return kDeferred;
  const Dims& in = ctx.inputShape(0).dims;
  const uint32_t rank = static_cast<uint32_t>(in.size());
  if (rank > 4) return ctx.fail("input 0: rank %u exceeds the maximum 4", rank);
  static const char* kNames[] = {"", "begin", "end", "strides"};
  for (uint32_t i = 1; i <= 3; ++i) {
    const Shape& s = ctx.inputShape(i);
    if (s.rank() != 1 || s.dims[0] != rank)
      return ctx.fail("input %u (%s): expected shape [%u] (the input rank), got %s", i, kNames[i],
                      rank, toString(s.dims).c_str());
  }
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

Status prepareStridedSlice(OpContext& ctx) {
  SliceParams sp;
  Dims out;
  NN_RETURN_IF_ERROR(computeSlice(ctx, &sp, &out));
  return ctx.setOutputDims(0, std::move(out));
}

Status executeStridedSlice(OpContext& ctx) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  SliceParams sp;
  Dims out;
  NN_RETURN_IF_ERROR(computeSlice(ctx, &sp, &out));
  const Shape& inShape = ctx.inputShape(0);
  // Canonical 4-D view: leading dimensions select their single element.
  int32_t b[4] = {0, 0, 0, 0}, st[4] = {1, 1, 1, 1};
  uint32_t n[4] = {1, 1, 1, 1};
  size_t stride[4] = {0, 0, 0, 0};
  const std::vector<size_t> inStrides = stridesOf(inShape.dims);
  const uint32_t pad = 4 - sp.rank;
  for (uint32_t i = 0; i < sp.rank; ++i) {
    b[pad + i] = sp.begin[i];
    st[pad + i] = sp.stride[i];
    n[pad + i] = sp.count[i];
    stride[pad + i] = inStrides[i];
  }
  for (int k = 0; k < 4; ++k)
    if (n[k] == 0) return kOk;
  return withElementType(elementSize(inShape.type), [&](auto tag) {
    using T = decltype(tag);
    const T* src = ctx.input<T>(0);
    T* dst = ctx.output<T>(0);
    for (uint32_t i0 = 0; i0 < n[0]; ++i0) {
      const ptrdiff_t o0 = ptrdiff_t(b[0] + int64_t(i0) * st[0]) * ptrdiff_t(stride[0]);
      for (uint32_t i1 = 0; i1 < n[1]; ++i1) {
        const ptrdiff_t o1 = o0 + ptrdiff_t(b[1] + int64_t(i1) * st[1]) * ptrdiff_t(stride[1]);
        for (uint32_t i2 = 0; i2 < n[2]; ++i2) {
          const ptrdiff_t o2 = o1 + ptrdiff_t(b[2] + int64_t(i2) * st[2]) * ptrdiff_t(stride[2]);
          const T* row = src + o2 + b[3];
          if (st[3] == 1) {
            memcpy(dst, row, n[3] * sizeof(T));
          } else {
            for (uint32_t i3 = 0; i3 < n[3]; ++i3) dst[i3] = row[ptrdiff_t(i3) * st[3]];
          }
          dst += n[3];
        }
      }
    }
    return kOk;
  });
}

}  // namespace

NN_REGISTER_OPERATION(STRIDED_SLICE, validateStridedSlice, prepareStridedSlice,
                      executeStridedSlice);

}  // namespace nn
