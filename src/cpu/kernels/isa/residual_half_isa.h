// The residual ADD of a relaxed model's block applied to the rows of its 1x1 convolution as the
// float16 GEMM leaves them (residual_half_avx512fp16.cc; driver gemm_half_residual.cc). Same
// include rules as conv_isa.h: plain declarations and trivial structs only.
#pragma once

#include <cstddef>
#include <cstdint>

namespace nn {

// out[r][j] = clamp(c[r][j] + (j < resC ? res[r][j] : 0)) for rows [rowBegin, rowEnd) and
// columns j < n: c and out rows of n values, the residual's rows of resC <= n values (the
// channels a zero PAD of the shortcut adds, BlazeFace's blocks, read as +0). Each of c, res and
// out is float16 bits (`ch`, `rh`, `oh`) or float32 (`cf`, `rf`, `of`; exactly one of each pair
// not null). The sum in float32, rounded once where the output is float16: the same bits as
// the ADD kernel (eltwise_half_isa.h, addHalf) on the padded residual. The clamp propagates NaN.
struct ResidualAddHalfArgs {
  uint32_t n, resC;
  const uint16_t* ch;
  const float* cf;
  const uint16_t* rh;
  const float* rf;
  uint16_t* oh;
  float* of;
  float outputMin, outputMax;
};

namespace isa_avx512fp16 {
void addResidualRows(const ResidualAddHalfArgs& a, size_t rowBegin, size_t rowEnd);
}  // namespace isa_avx512fp16

}  // namespace nn
