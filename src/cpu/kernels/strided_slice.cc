// STRIDED_SLICE on the CPU: walks the resolved slice over a canonical 4-D view, copying
// whole rows when the innermost stride is 1.
#include <cstddef>
#include <cstring>
#include <vector>

#include "cpu/kernel.h"
#include "spec/ops/shape_util.h"
#include "spec/ops/strided_slice.h"

namespace nn {
namespace {

using namespace shape_ops;

Status execute(OpContext& ctx) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  strided_slice::SliceParams sp;
  Dims out;
  NN_RETURN_IF_ERROR(strided_slice::computeSlice(ctx, &sp, &out));
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

NN_DEFINE_CPU_KERNEL(STRIDED_SLICE, execute);

}  // namespace nn
