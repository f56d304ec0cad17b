// CONCATENATION on the CPU: contiguous runs are copied with memcpy; 8-bit inputs whose
// quantization differs from the output's are requantized on the way.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "cpu/kernel.h"
#include "spec/ops/shape_util.h"

namespace nn {
namespace {

using namespace shape_ops;

// Maps one 8-bit value from the input's quantization to the output's, rounding half away
// from zero in float as the reference does.
template <typename T>
void requantizeRun(T* dst, const T* src, size_t count, const Shape& in, const Shape& out) {
  const float scale = in.scale * (1.0f / out.scale);
  const float bias = -static_cast<float>(in.zeroPoint) * scale;
  constexpr int32_t lo = std::numeric_limits<T>::min();
  constexpr int32_t hi = std::numeric_limits<T>::max();
  for (size_t j = 0; j < count; ++j) {
    const float scaled = static_cast<float>(src[j]) * scale;
    const int32_t v = static_cast<int32_t>(std::round(scaled + bias)) + out.zeroPoint;
    dst[j] = static_cast<T>(std::min(hi, std::max(lo, v)));
  }
}

Status execute(OpContext& ctx) {
  const uint32_t n = ctx.numInputs() - 1;
  const Shape& out = ctx.outputShape(0);
  if (out.count() == 0) return kOk;
  const int32_t rank = static_cast<int32_t>(out.rank());
  int32_t axis = ctx.scalar<int32_t>(n);
  if (axis < 0) axis += rank;
  size_t outer = 1, inner = 1;
  for (int32_t k = 0; k < axis; ++k) outer *= out.dims[k];
  for (int32_t k = axis + 1; k < rank; ++k) inner *= out.dims[k];
  const size_t es = elementSize(out.type);
  const size_t outRow = static_cast<size_t>(out.dims[axis]) * inner * es;
  uint8_t* dstBase = ctx.output<uint8_t>(0);

  size_t columnOffset = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const Shape& in = ctx.inputShape(i);
    const size_t run = static_cast<size_t>(in.dims[axis]) * inner * es;
    const uint8_t* src = ctx.input<uint8_t>(i);
    const bool rescale =
        isQuant8(out.type) && (in.scale != out.scale || in.zeroPoint != out.zeroPoint);
    if (run != 0) {
      for (size_t o = 0; o < outer; ++o) {
        uint8_t* dst = dstBase + o * outRow + columnOffset;
        const uint8_t* s = src + o * run;
        if (!rescale) {
          memcpy(dst, s, run);
        } else if (out.type == kQ8) {
          requantizeRun(dst, s, run, in, out);
        } else {
          requantizeRun(reinterpret_cast<int8_t*>(dst), reinterpret_cast<const int8_t*>(s), run,
                        in, out);
        }
      }
    }
    columnOffset += run;
  }
  return kOk;
}

}  // namespace

NN_DEFINE_CPU_KERNEL(CONCATENATION, execute);

}  // namespace nn
