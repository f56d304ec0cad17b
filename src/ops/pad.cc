// PAD with the logical zero (0.0, or the zero point for 8-bit asymmetric tensors).
// Each input row (innermost dimension) lands in the output with one memcpy; only the
// padding regions are filled.
#include "ops/operation.h"
#include "ops/reduce_util.h"

namespace nn {
namespace {

using namespace shape_ops;

Status validatePad(ValidationContext& c) {
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

// Reads and checks the [rank, 2] paddings tensor.
Status readPaddings(OpContext& ctx, std::vector<int32_t>* pads) {
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

Status preparePad(OpContext& ctx) {
  const Dims& in = ctx.inputShape(0).dims;
  if (in.size() > 4) return ctx.fail("input 0: rank %zu exceeds the maximum 4", in.size());
  std::vector<int32_t> pads;
  NN_RETURN_IF_ERROR(readPaddings(ctx, &pads));
  Dims out(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const uint64_t d = uint64_t(in[i]) + uint64_t(pads[2 * i]) + uint64_t(pads[2 * i + 1]);
    if (d > UINT32_MAX) return ctx.fail("output dimension %zu (%llu) is too large", i,
                                        (unsigned long long)d);
    out[i] = static_cast<uint32_t>(d);
  }
  return ctx.setOutputDims(0, std::move(out));
}

Status executePad(OpContext& ctx) {
  const Shape& inShape = ctx.inputShape(0);
  const Shape& outShape = ctx.outputShape(0);
  if (outShape.count() == 0) return kOk;
  std::vector<int32_t> pads;
  NN_RETURN_IF_ERROR(readPaddings(ctx, &pads));
  const size_t es = elementSize(inShape.type);
  const uint8_t fill = zeroByte(outShape);  // every padded type here has 1-byte or all-zero fill
  uint8_t* dst = ctx.output<uint8_t>(0);
  const uint8_t* src = ctx.input<uint8_t>(0);

  // Canonical 4-D view with leading unit dimensions.
  const size_t rank = inShape.rank();
  uint32_t id[4] = {1, 1, 1, 1}, od[4] = {1, 1, 1, 1}, before[4] = {0, 0, 0, 0};
  for (size_t i = 0; i < rank; ++i) {
    id[4 - rank + i] = inShape.dims[i];
    od[4 - rank + i] = outShape.dims[i];
    before[4 - rank + i] = static_cast<uint32_t>(pads[2 * i]);
  }
  if (inShape.count() == 0) {
    memset(dst, fill, outShape.bytes());
    return kOk;
  }
  const size_t orow = size_t(od[3]) * es;
  const size_t irow = size_t(id[3]) * es;
  const size_t headBytes = size_t(before[3]) * es;
  const size_t tailBytes = orow - headBytes - irow;
  // Output rows (over the first three dims) are either entirely padding or hold one input row.
  for (uint32_t a = 0; a < od[0]; ++a) {
    const bool aIn = a >= before[0] && a < before[0] + id[0];
    for (uint32_t b = 0; b < od[1]; ++b) {
      const bool bIn = aIn && b >= before[1] && b < before[1] + id[1];
      uint8_t* row = dst + ((size_t(a) * od[1] + b) * od[2]) * orow;
      if (!bIn) {
        memset(row, fill, size_t(od[2]) * orow);
        continue;
      }
      for (uint32_t c = 0; c < od[2]; ++c, row += orow) {
        if (c < before[2] || c >= before[2] + id[2]) {
          memset(row, fill, orow);
          continue;
        }
        const size_t ia = a - before[0], ib = b - before[1], ic = c - before[2];
        const uint8_t* s = src + ((ia * id[1] + ib) * id[2] + ic) * irow;
        if (headBytes) memset(row, fill, headBytes);
        memcpy(row + headBytes, s, irow);
        if (tailBytes) memset(row + headBytes + irow, fill, tailBytes);
      }
    }
  }
  return kOk;
}

}  // namespace

NN_REGISTER_OPERATION(PAD, validatePad, preparePad, executePad);

}  // namespace nn
