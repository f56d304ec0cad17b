// PAD on the CPU with the logical zero (0.0, or the zero point for 8-bit asymmetric
// tensors). Each input row (innermost dimension) lands in the output with one memcpy; only
// the padding regions are filled.
#include <cstring>
#include <vector>

#include "cpu/kernel.h"
#include "spec/ops/pad.h"
#include "spec/ops/shape_util.h"

namespace nn {
namespace {

using namespace shape_ops;

Status execute(OpContext& ctx) {
  const Shape& inShape = ctx.inputShape(0);
  const Shape& outShape = ctx.outputShape(0);
  if (outShape.count() == 0) return kOk;
  std::vector<int32_t> pads;
  NN_RETURN_IF_ERROR(pad_ops::readPadPaddings(ctx, &pads));
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

NN_DEFINE_CPU_KERNEL(PAD, execute);

}  // namespace nn
