// PAD with the logical zero: signature and output shape (input + paddings per dimension).
#include "spec/ops/dim_math.h"
#include "spec/ops/pad.h"

#include "spec/ops/reduce_util.h"

namespace nn {
namespace pad_ops {

using namespace shape_ops;

Status readPadPaddings(const ShapeContext& ctx, std::vector<int32_t>* pads) {
  const uint32_t rank = ctx.inputShape(0).rank();
  if (!ctx.hasInputData(1)) return kDeferred;
  const Shape& p = ctx.inputShape(1);
  if (p.rank() != 2 || p.dims[0] != rank || p.dims[1] != 2)
    return ctx.fail("input 1 (paddings): expected shape [%u, 2], got %s", rank,
                    toString(p.dims).c_str());
  *pads = readInt32Vector(ctx, 1);
  for (size_t i = 0; i < pads->size(); ++i)
    if ((*pads)[i] < 0)
      return ctx.fail("input 1 (paddings): entry [%zu, %zu] is %d; paddings must be >= 0", i / 2,
                      i % 2, (*pads)[i]);
  return kOk;
}

}  // namespace pad_ops

namespace {

using namespace shape_ops;

Status validate(ValidationContext& c) {
  NN_RETURN_IF_ERROR(reduce_ops::validateDataTensorOp(c, 2, 2));
  NN_RETURN_IF_ERROR(requirePresent(c, 1));
  NN_RETURN_IF_ERROR(c.checkInputType(1, kI32));
  NN_RETURN_IF_ERROR(c.checkInputRank(1, 2));
  NN_RETURN_IF_ERROR(checkOutputLikeInput(c, 0, 0));
  if (const void* p = c.constantData(1)) {
    const size_t n = c.input(1).location.length / sizeof(int32_t);
    for (size_t i = 0; i < n; ++i) {
      int32_t v;
      memcpy(&v, static_cast<const uint8_t*>(p) + i * 4, 4);
      if (v < 0)
        return c.fail("input 1 (paddings): entry [%zu, %zu] is %d; paddings must be >= 0", i / 2,
                      i % 2, v);
    }
  }
  return kOk;
}

Status inferShapes(ShapeContext& ctx) {
  const Dims& in = ctx.inputShape(0).dims;
  if (in.size() > 4) return ctx.fail("input 0: rank %zu exceeds the maximum 4", in.size());
  std::vector<int32_t> pads;
  NN_RETURN_IF_ERROR(pad_ops::readPadPaddings(ctx, &pads));
  Dims out(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    if (!dim_math::paddedDim(in[i], pads[2 * i], pads[2 * i + 1], &out[i]))
      return ctx.fail("input 1 (paddings): dimension %zu padded by %d and %d does not fit a "
                      "32-bit dimension (input extent %u)",
                      i, pads[2 * i], pads[2 * i + 1], in[i]);
  }
  return ctx.setOutputDims(0, std::move(out));
}

}  // namespace

NN_DEFINE_OPERATION_SPEC(PAD, validate, inferShapes);

}  // namespace nn
