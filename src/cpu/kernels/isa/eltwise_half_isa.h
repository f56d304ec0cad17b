// Float16 storage kernels of the operations around the convolutions in relaxed models' residual
// blocks (ADD, MAX_POOL_2D; eltwise_half_avx512fp16.cc, driver eltwise_half.cc): they read and
// write the float16 temporaries the CPU driver's graph pass makes (graph_fusion.h), so that a
// backbone's tensors stay float16 between its convolutions; and MEAN of float16 models. Same
// include rules as conv_isa.h: plain declarations and trivial structs only.
#pragma once

#include <cstddef>
#include <cstdint>

namespace nn {

// out[i] = clamp(a[i] + b[i]) over elements [begin, end): each input float16 bits (`ah`, `bh`)
// or float32 (`af`, `bf`; exactly one of each pair not null), the sum in float32 and rounded once
// to float16 where the output is float16 (`oh`, else float32 `of`): for float16 inputs and output
// the same bits as widening, adding in float32 and narrowing (what the reference kernel does).
// The clamp propagates NaN.
struct AddHalfArgs {
  const uint16_t* ah;
  const float* af;
  const uint16_t* bh;
  const float* bf;
  uint16_t* oh;
  float* of;
  float outputMin, outputMax;
};

// MAX_POOL_2D on float16 NHWC data: out = clamp(max over the window's taps inside the input),
// output rows [rowBegin, rowEnd) of the batches * outH rows (max is exact in float16; the clamp
// as the float32 kernel's).
struct MaxPoolHalfArgs {
  uint32_t inH, inW, channels, outH, outW, filterH, filterW;
  int32_t strideH, strideW, padTop, padLeft;
  const uint16_t* in;
  uint16_t* out;
  float outputMin, outputMax;
};

// MEAN over H and W of float16 NHWC data: out[b][c] = float16(sum over the pixels in order of
// float32(in[b][p][c]), in float32, divided by `count`): the portable kernel's sums and
// rounding (mean.cc), so the same bits. With `outF` the quotient is stored as it is (float32).
struct SpatialMeanHalfArgs {
  const uint16_t* in;  // [batches][pixels][channels]
  uint16_t* out;       // [batches][channels] ...
  float* outF;         // ... or float32 (exactly one set)
  uint32_t batches, channels;
  size_t pixels;
  float count;
};

namespace isa_avx512fp16 {
void addHalf(const AddHalfArgs& a, size_t begin, size_t end);
void maxPoolHalfRows(const MaxPoolHalfArgs& a, uint32_t rowBegin, uint32_t rowEnd);
void spatialMeanHalf(const SpatialMeanHalfArgs& a);
}  // namespace isa_avx512fp16

}  // namespace nn
