// The float16 stem convolution of relaxed models (stem_half_avx512fp16.cc; driver stem_half.cc):
// a CONV_2D from at most 4 input channels to at most 32 output channels, any window and stride,
// dilation 1. Same include rules as conv_isa.h: plain declarations and trivial structs only.
#pragma once

#include <cstddef>
#include <cstdint>

namespace nn {

// Output lanes of one vector: all output channels of a pixel.
constexpr uint32_t kStemHalfLanes = 32;
// Terms summed in float16 before they are added into float32 sums, whole filter rows at a
// time: a 5x5 window on 3 channels one row (15 terms), 3x3 two rows (18). The stem's rounding
// reaches every later layer: with 32 (5x5: two rows, 30 terms; 3x3: all 27, as the float16
// GEMM's kHalfKBlock) the relaxed real-model test (tests/tflite_e2e_test.cc, bound 1e-2) gave
// face_detection_full_range 0.0097 of max |fp32|, with 16 (3x3: one row) 0.0030, with 18 0.0025
// (with graph_fusion.cc's float16 narrow outputs before depthwise layers); seeds 5-12 worst
// 0.0097 -> 0.0056. One more flush per pixel (3x3), two (5x5): one thread, the 3x3 stem to 32
// channels took the same time, the 5x5 to 24 ~2% longer (~2 us); with 16 the 3x3 (three
// flushes) took ~20 us longer.
constexpr uint32_t kStemHalfKBlock = 18;

struct StemHalfArgs {
  // The input of one image [inH][inW][channels] float32; padTop / padLeft as the convolution's.
  const float* image;
  uint32_t inH, inW, channels;
  int32_t padTop, padLeft;
  // Width of the padded rows the kernel reads (every window inside): (outW - 1) * strideW +
  // filterW.
  uint32_t padW;
  uint32_t outW, n, filterH, filterW;
  uint32_t strideH, strideW;
  // [filterH][filterW * channels][kStemHalfLanes] float16 bits, zero past n; bias [32] float32.
  const uint16_t* w;
  const float* bias;
  float outputMin, outputMax;
  // [outH][outW][n]: float16 bits, or float32 where outF is not null.
  uint16_t* out;
  float* outF;
};
// Scratch of one stemHalfRows call, in uint32: the filterH padded input rows of an output row,
// rounded to float16, each value twice in a 32-bit word (one vpbroadcastd from memory then
// fills a vector with it: a load uop without a shuffle); they stay in L1.
static inline size_t stemHalfScratchWords(const StemHalfArgs& a) {
  return static_cast<size_t>(a.filterH) * a.padW * a.channels;
}

namespace isa_avx512fp16 {
// Output rows [rowBegin, rowEnd) of the image.
void stemHalfRows(const StemHalfArgs& a, uint32_t rowBegin, uint32_t rowEnd, uint32_t* scratch);
}  // namespace isa_avx512fp16

}  // namespace nn
