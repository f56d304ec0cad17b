// The float16 GEMM of relaxed (and TENSOR_FLOAT16) 1x1 convolutions, built with
// AVX512-FP16 (gemm_half_avx512fp16.cc; driver gemm_half.cc). Same include rules as
// conv_isa.h: plain declarations and trivial structs only, so the ISA unit emits nothing that
// baseline code could end up calling.
#pragma once

#include <cstddef>
#include <cstdint>

namespace nn {

// Packed float16 weights: [tile][k][kHalfTileN] binary16 bits, zero past n. 64 columns =
// two 32-lane fp16 vectors per row and k.
constexpr uint32_t kHalfTileN = 64;
// Up to this many output columns the weights are packed for the narrow kernel instead: groups
// of 8 columns, each column's float16 weight repeated 4 times, [k][groups][8 columns][4]
// (gemm_half_avx512fp16.cc: one 32-lane vector then holds 8 columns of 4 rows, so 16, 24 or 40
// columns fill their vectors where the 64-column tiles would leave them half empty).
constexpr uint32_t kHalfNarrowMaxN = 48;
constexpr uint32_t kHalfNarrowGroup = 8;
static inline bool halfGemmNarrow(uint32_t n) { return n <= kHalfNarrowMaxN; }
// Terms summed in float16 before they are added into the float32 sums: the float16 rounding
// error of a partial sum grows with its length (typically sqrt(kb) * 2^-12 of its magnitude),
// the float32 flush costs conversions and a load and store of the output per block. On the
// MediaPipe models rounding the inputs dominates the difference from float32 (blocks of 4 to
// all k terms all gave 1-3% on pose_landmark_lite), but with 64 the face detector's scores
// came within 0.0094 of tests/tflite_e2e_test.cc's 1e-2 bound (0.003 with 32), and 64 was only
// ~5% faster over the 1x1 layers (nnapi_bench_direct --half). The 64-column kernel adds two
// blocks' float16 sums in float16 before widening them (gemm_half_avx512fp16.cc, block). See
// tests/internal/gemm_half_test.cc for the bounds.
constexpr uint32_t kHalfKBlock = 32;
// Rows of a converted to float16 at a time (each value as a 32-bit pair, see
// gemm_half_avx512fp16.cc): these rows with one weight tile stay in L2.
constexpr size_t kHalfBlockElems = 48 * 1024;  // 192 KB
constexpr uint32_t kHalfRowAlign = 8;           // row blocks are multiples of this

// Rows per converted block for this k (at least kHalfRowAlign), and the scratch one call of
// gemmHalfPanels needs: that many rows of k uint32, and with a float16 output (`halfOut`) as
// many rows of n float32 sums between blocks of k when k > kHalfKBlock (the last block rounds
// them once into the output), the rows then also limited so that these stay within
// kHalfBlockElems. Static (internal
// linkage): the ISA unit's copy, compiled with AVX-512 flags, must not be the one the linker
// keeps for baseline code.
static inline size_t halfGemmBlockRows(uint32_t k, uint32_t n, bool halfOut) {
  size_t rows = kHalfBlockElems / (k > 0 ? k : 1) / kHalfRowAlign * kHalfRowAlign;
  if (halfOut && k > kHalfKBlock) {
    const size_t byN = kHalfBlockElems / (n > 0 ? n : 1) / kHalfRowAlign * kHalfRowAlign;
    if (byN < rows) rows = byN;
  }
  return rows < kHalfRowAlign ? kHalfRowAlign : rows;
}
static inline size_t halfGemmScratchElems(uint32_t k, uint32_t n, bool halfOut) {
  const size_t rows = halfGemmBlockRows(k, n, halfOut);
  return rows * (k > 0 ? k : 1) + (halfOut && k > kHalfKBlock ? rows * (n > 0 ? n : 1) : 0);
}

// c[r][n] = clamp(bias[n] + sum_k a[r * lda + k] * W[n][k]) for rows [rowBegin, rowEnd) and
// the output columns of packed tiles [tileBegin, tileEnd); a, bias and c float32, a and W
// rounded to float16 and multiplied in float16, partial sums of kHalfKBlock terms (in the
// 64-column kernel two of them added in float16 first) added up in float32. `scratch` holds
// halfGemmScratchElems(k, n, ch != nullptr) uint32 (the caller's, one per thread). A float16 input (`ah` instead of `a`) is read as it is, a float16 output (`ch`
// instead of `c`) is the float32 result rounded once (relaxed models whose intermediate
// tensors the CPU driver stores in float16, graph_fusion.h); except with k at most four blocks of
// kHalfKBlock, where the blocks' float16 sums are added in float16 and the bias rounded to
// float16 (gemm_half_avx512fp16.cc, blockShortHalf).
struct GemmHalfArgs {
  uint32_t m, n, k;
  size_t lda;               // floats between consecutive rows of a
  const float* a;
  const uint16_t* packed;   // the layout above
  const float* bias;        // [n]; null: zero
  float outputMin, outputMax;
  float* c;                 // [m][n]
  const uint16_t* ah;       // instead of a: float16 bits, same row stride lda
  uint16_t* ch;             // instead of c: float16 bits [m][n]
  // `packed` in the narrow layout (halfGemmNarrow(n)): one tile, [k][ceil(n / 8)][8][4].
  bool narrow;
  // Narrow layout only (gemm_half_residual.h): with `residual` the output is a residual ADD's,
  // out = clamp(addMin, addMax, conv + (column < resC ? res : 0)) summed in float32 as the
  // float16 ADD kernel does, conv the clamped result above (rounded to float16 first where
  // `roundConv`: the convolution's own output tensor is float16); res [m][resC] float16 bits
  // (`rh`) or float32 (`rf`), same rows as a.
  bool residual;
  // Any layout: the output is read only by a residual ADD (gemm_half_residual.h), whose clamp
  // then takes the place of an unbounded one here (gemm_half_avx512fp16.cc).
  bool feedsAdd;
  bool roundConv;
  uint32_t resC;
  const uint16_t* rh;
  const float* rf;
  float addMin, addMax;
  // The 64-column kernel takes a call's row blocks from the last to the first (gemm_half.cc).
  bool lastBlockFirst;
  // The weights in the small-n layout (gemm_half_small_isa.h) where they were packed so, else
  // null; only the small-n kernel reads them.
  const uint16_t* small;
};
namespace isa_avx512fp16 {
void gemmHalfPanels(const GemmHalfArgs& g, uint32_t rowBegin, uint32_t rowEnd,
                    uint32_t tileBegin, uint32_t tileEnd, uint32_t* scratch);
}  // namespace isa_avx512fp16

// DEPTHWISE_CONV_2D (depth multiplier 1, NHWC) on float16 data in float16 arithmetic
// (depthwise_half_avx512fp16.cc): out = clamp(bias + sum over the taps inside the input of
// in * w), each output value's taps summed in filter order in one float16 accumulator (at most
// filterH * filterW terms). Output rows [rowBegin, rowEnd) of the batches * outH rows.
constexpr uint32_t kHalfDwLanes = 32;
struct DepthwiseHalfArgs {
  uint32_t inH, inW, channels, outH, outW, filterH, filterW;
  int32_t strideH, strideW, padTop, padLeft, dilationH, dilationW;
  const uint16_t* in;      // [batches][inH][inW][channels]
  const uint16_t* filter;  // [filterH * filterW][channels rounded up to kHalfDwLanes], zero past
  const uint16_t* bias;    // [channels rounded up to kHalfDwLanes]
  float outputMin, outputMax;
  uint16_t* out;           // [batches][outH][outW][channels]
  float* outF;             // instead of out: float32 results, the taps summed in float32
};
namespace isa_avx512fp16 {
void depthwiseHalfRows(const DepthwiseHalfArgs& a, uint32_t rowBegin, uint32_t rowEnd);
}  // namespace isa_avx512fp16

// The same convolution (float16 output only, filter width 3 or 5 at horizontal stride 1 or 2,
// dilation 1 along W) by 32-channel group (depthwise_half_rows_avx512fp16.cc): groups
// [groupBegin, groupEnd) outermost, output rows [rowBegin, rowEnd) inside, each row in runs of
// at most kHalfDwRowMaxRun columns held in registers. Bit-identical with depthwiseHalfRows.
constexpr uint32_t kHalfDwRowMaxRun = 16;
namespace isa_avx512fp16 {
void depthwiseHalfChannelRows(const DepthwiseHalfArgs& a, uint32_t rowBegin, uint32_t rowEnd,
                              uint32_t groupBegin, uint32_t groupEnd);
}  // namespace isa_avx512fp16

}  // namespace nn
