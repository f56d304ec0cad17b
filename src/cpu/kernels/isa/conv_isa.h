// The convolution family's micro-kernels built for one instruction set each. Every ISA has its
// own translation unit here (conv_avx2.cc, conv_avx512.cc, conv_avx512vnni.cc), compiled with
// that ISA's target flags (CMakeLists.txt) while the rest of the library targets baseline
// x86-64; conv_dispatch.cc picks one per entry point at run time from nn::cpuFeatures().
//
// ODR safety: the linker keeps one copy of an inline function, template instance or library
// template that several translation units emit, and if it kept the AVX-512 build of one that
// baseline code calls, the library would fault on older processors. So an ISA translation unit
// includes only this header (plain declarations and trivial structs), <immintrin.h>,
// <cstdint>, <cstddef>, static_flags.h and half_store.h (internal linkage only); its helpers
// have internal linkage, and its entry points live in a namespace per ISA (nn::isa_avx2,
// nn::isa_avx512, nn::isa_avx512vnni).
#pragma once

#include <cstddef>
#include <cstdint>

namespace nn {

// Packed GEMM layouts (conv_gemm.cc packs, the micro-kernels read):
//   float weights: [tile][k][kConvTileN]
//   int8 weights:  [tile][k / 4][kConvTileN][4]
constexpr uint32_t kConvTileN = 32;  // output columns per packed weight tile
constexpr uint32_t kConvMaxMR = 6;   // rows per micro-kernel call

// Quant8 depthwise filter for the pairwise kernel: [tap pair][kConvDwBlock-channel block]
// [lo 32 | hi 32] int16, where "lo" holds channels 8L..8L+3 and "hi" channels 8L+4..8L+7 of each
// 128-bit lane L, each as (tap 2p, tap 2p+1) pairs: the order vpunpck{l,h}wd produces from two
// tap rows, so one vpmaddwd multiplies and sums two taps.
constexpr uint32_t kConvDwBlock = 32;

// A quant8 depthwise convolution with depth multiplier 1 (NHWC, sizes as in conv::Geometry).
// Trivial on purpose: no constructors or initializers an ISA unit could emit.
struct ConvDepthwiseQuantArgs {
  uint32_t batches, inH, inW, inC, outH, outW, channels, filterH, filterW;
  int32_t strideH, strideW, padTop, padLeft, dilationH, dilationW;
  int32_t inputZeroPoint, outputZeroPoint, actMin, actMax;
  const int32_t* multiplier;   // [channels] Q31
  const int32_t* shift;        // [channels] positive = left
  const int32_t* bias;         // [channels]
  const int16_t* interleaved;  // the layout above, zero point removed
  const void* input;           // uint8 or int8
  void* output;
};

// A float32 depthwise convolution (NHWC); filter [kh][kw][channels].
struct ConvDepthwiseFloatArgs {
  uint32_t batches, inH, inW, inC, outH, outW, channels, filterH, filterW, depthMultiplier;
  int32_t strideH, strideW, padTop, padLeft, dilationH, dilationW;
  float outputMin, outputMax;
  const float* input;
  const float* filter;
  const float* bias;
  float* output;
};

// A float32 transposed convolution (NHWC) gathered per output pixel; filter repacked as
// [kh][kw][inC][outC]; padBottom/padRight may be negative (see TRANSPOSE_CONV_2D).
struct ConvTransposeFloatArgs {
  uint32_t batches, inH, inW, inC, outH, outW, outC, filterH, filterW;
  int32_t strideH, strideW, padTop, padLeft;
  float outputMin, outputMax;
  const float* input;
  const float* filter;
  const float* bias;
  float* output;
};

// A float32 CONV_2D (NHWC) computed directly, for few output channels (conv_direct_avx512.cc):
// the same fields, filter as given, [outC][kh][kw][inC]; dilation 1.
using ConvDirectFloatArgs = ConvTransposeFloatArgs;

// Signatures shared by every ISA (one function per ISA namespace below, declared with these
// types; the definitions spell them out):
//
// convFloatMicroKernel: acc[r][0..32) = biasTile + sum_k rows[r][k] * tile[k][0..32), r < mr.
using ConvFloatMicroKernelFn = void(uint32_t mr, const float* const* rows, const float* tile,
                                    uint32_t k, const float* biasTile, float* acc);
// convQuantMicroKernel: acc[r][0..32) = sum_k rows[r][k] (u8) * tile (s8), k4 a multiple of 4.
using ConvQuantMicroKernelFn = void(uint32_t mr, const uint8_t* const* rows, const int8_t* tile,
                                    uint32_t k4, int32_t* acc);
// convRequantizeU8/S8:  out[c] = clamp(requantize(acc[c] + add[c] + rowOffset) + outZero),
//                       exactly conv::requantize; `add` may be null.
template <typename TOut>
using ConvRequantizeFn = void(const int32_t* acc, const int32_t* add, int32_t rowOffset,
                              const int32_t* multiplier, const int32_t* shift, int32_t outZero,
                              int32_t lo, int32_t hi, uint32_t count, TOut* out);
// convDepthwiseQuantRowsU8/S8: output rows [rowBegin, rowEnd) (row = batch * outH + oh) with
//                       the calling thread's buffers: acc and zeroRow [channels], taps
//                       [2 * ceil(filterH * filterW / 2)], rowBase [filterH].
template <typename T>
using ConvDepthwiseQuantRowsFn = void(const ConvDepthwiseQuantArgs& a, size_t rowBegin,
                                      size_t rowEnd, int32_t* acc, T* zeroRow, const T** taps,
                                      const T** rowBase);
// convDepthwiseFloatRows, convTransposeFloatRows: output rows [rowBegin, rowEnd); `acc` holds
//                       one float per output channel.
template <typename Args>
using ConvFloatRowsFn = void(const Args& a, size_t rowBegin, size_t rowEnd, float* acc);

namespace isa_baseline {  // portable C++ (conv_dispatch.cc)
ConvFloatMicroKernelFn convFloatMicroKernel;
ConvQuantMicroKernelFn convQuantMicroKernel;
ConvRequantizeFn<uint8_t> convRequantizeU8;
ConvRequantizeFn<int8_t> convRequantizeS8;
ConvFloatRowsFn<ConvDepthwiseFloatArgs> convDepthwiseFloatRows;
ConvFloatRowsFn<ConvTransposeFloatArgs> convTransposeFloatRows;
}  // namespace isa_baseline

namespace isa_avx2 {  // AVX2 + FMA
ConvFloatMicroKernelFn convFloatMicroKernel;
ConvFloatRowsFn<ConvDepthwiseFloatArgs> convDepthwiseFloatRows;
ConvFloatRowsFn<ConvTransposeFloatArgs> convTransposeFloatRows;
}  // namespace isa_avx2

namespace isa_avx512 {  // AVX-512 F/BW/VL/DQ (+ AVX2, FMA)
ConvFloatMicroKernelFn convFloatMicroKernel;
ConvRequantizeFn<uint8_t> convRequantizeU8;
ConvRequantizeFn<int8_t> convRequantizeS8;
ConvDepthwiseQuantRowsFn<uint8_t> convDepthwiseQuantRowsU8;
ConvDepthwiseQuantRowsFn<int8_t> convDepthwiseQuantRowsS8;
ConvFloatRowsFn<ConvDepthwiseFloatArgs> convDepthwiseFloatRows;
ConvFloatRowsFn<ConvTransposeFloatArgs> convTransposeFloatRows;
// Register-blocked direct kernels (conv_direct_avx512.cc): depthwise with depth multiplier 1
// (several output pixels per pass; 8 channels at stride 1 as pixel pairs), and CONV_2D with few
// output channels (the filter window of each output pixel as contiguous spans, 16 pixels
// reduced at once). `acc` is unused.
ConvFloatRowsFn<ConvDepthwiseFloatArgs> convDepthwiseFloatRowsDirect;
ConvFloatRowsFn<ConvDirectFloatArgs> convNarrowFloatRows;
}  // namespace isa_avx512

// One output row of a 3x3 depthwise convolution (depth multiplier 1, dilation 1) over
// `channels` channels, summed in the 2022 XNNPACK's order (its 9-tap unipass kernel): from the
// bias, one FMA per tap with the taps column by column (kw outer, kh inner), padding taps
// multiplying zeros, then max with outputMin and min with outputMax. So a layer XNNPACK would
// run gets its bits (the expansion + depthwise band fusion, gemm_float.cc). The input rows
// may lie anywhere (a ring of rows) and pixels of input, filter and output have their own
// strides (one channel tile of a wider tensor).
struct ConvDepthwise3x3RowArgs {
  const float* rows[3];    // input rows kh = 0, 1, 2; null: a padding row
  size_t inPixelStride;    // floats between neighbouring input pixels
  uint32_t inW, outW, channels;
  int32_t strideW, padLeft;
  const float* filter;     // tap t (t = kh * 3 + kw), channel c at filter[t * filterTapStride + c]
  size_t filterTapStride;
  const float* bias;
  float outputMin, outputMax;
  float* out;              // output pixel ow, channel c at out[ow * outPixelStride + c]
  size_t outPixelStride;
};
using ConvDepthwise3x3RowFn = void(const ConvDepthwise3x3RowArgs& a);
namespace isa_avx512 {
ConvDepthwise3x3RowFn convDepthwise3x3FloatRowXnnOrder;
}  // namespace isa_avx512

// One output row of a 3x3 stride-1 depthwise layer (depth multiplier 1, dilation 1) with 24,
// 32, 40 or 56 channels and the 1x1 CONV_2D with at most 16 outputs reading it (the depthwise +
// projection band fusion, depthwise_project.cc). The depthwise layer runs on pixel pairs: two
// neighbouring pixels' channels are 2 * channels floats, a whole number of vectors, where
// convDepthwiseFloatRowsDirect leaves half of its last vector empty at channels % 16 == 8.
// With at most 8 outputs the 1x1 layer runs on pixel pairs too (projectPairW): one vector holds
// both pixels' outputs, where the panel GEMM's vector would be half empty. The input rows are
// zero-padded copies, so every output pixel is an interior one. Same values as the direct
// depthwise kernel and the panel GEMM run apart (each sum from the bias, taps in filter order,
// then the 1x1 layer's inputs in order), except that a padding tap adds a zero product where
// those kernels skip it (the sign of a zero sum, a non-finite weight).
struct DepthwiseProjectRowArgs {
  const float* rows[3];   // padded input rows kh = 0, 1, 2 (column ow + kw feeds output ow);
                          // null: a padding row (its taps skipped)
  uint32_t channels, outW, n;  // n: the 1x1 layer's outputs, 1..16
  const float* pairFilter;     // [9][2 * channels]: tap t's weights twice over
  const float* pairBias;       // [2 * channels]
  float dwMin, dwMax;
  const float* packed;    // the 1x1 layer's weights in the panel GEMM's layout (tile 0: [k][32])
  const float* bias;      // [n]; null: zero
  // n <= 8: [channels][16], lanes 2j and 2j + 1 output j's weight (zero from j = n); else null
  const float* projectPairW;
  const float* projectPairBias;  // n <= 8: [16] in the same lanes (zero from j = n or no bias)
  float outMin, outMax;
  float* dwRow;           // scratch: 8 * channels floats (one block of depthwise pixels)
  float* out;             // [outW][n]
};
using DepthwiseProjectRowFn = void(const DepthwiseProjectRowArgs& a);
namespace isa_avx512 {
DepthwiseProjectRowFn depthwiseProjectRow;
}  // namespace isa_avx512

// Depthwise for narrow maps (depthwise_small_avx512.cc): depth multiplier 1, dilation 1,
// filterW 3 or 5, strideW 1 or 2. Units [unitBegin, unitEnd) of (group of groupBlocks
// 16-channel blocks, output row): unit = group * rows + row, or with rowMajor
// row * groups + group (row = batch * outH + oh); the same bits as
// convDepthwiseFloatRowsDirect.
using ConvDepthwiseFloatUnitsFn = void(const ConvDepthwiseFloatArgs& a, uint32_t groupBlocks,
                                       bool rowMajor, size_t unitBegin, size_t unitEnd);
namespace isa_avx512 {
ConvDepthwiseFloatUnitsFn convDepthwiseFloatSmallMap;
}  // namespace isa_avx512

namespace isa_avx512vnni {  // the AVX-512 set + VNNI
ConvQuantMicroKernelFn convQuantMicroKernel;
}  // namespace isa_avx512vnni

// ---- AMX-INT8 ----------------------------------------------------------------------
// Only after nn::amxInt8Usable() (the kernel granted XTILEDATA), from one thread between its
// amxConfigure() and amxRelease(). Packed B: the int8 layout above with k padded to a multiple
// of 64 (zeros), so A may hold anything past k.
namespace isa_amx {
void amxConfigure();  // loads this thread's tile configuration
void amxRelease();    // returns the tile state to init (cheap context switches)
// The tile registers' C[32][kConvTileN] = A[32 rows][k64] (uint8, or int8 if signedA; the 64
// bytes of row r from k = kb at a + kb / 64 * aStep + r * lda: aStep 64 for rows as stored,
// 32 * 64 for a k-blocked panel) times one packed B tile [k64 / 4][kConvTileN][4]; rows <= 16
// computes only C's first 16 rows (A's first 16 read), cols <= 16 only its first 16 columns
// (B's first 16 read). The sums stay in the tiles until amxStore, so the caller can requantize
// the previous block while the tile unit multiplies.
void amxCompute(bool signedA, const uint8_t* a, size_t lda, size_t aStep, const int8_t* b,
                uint32_t k64, uint32_t rows, uint32_t cols);
// acc[r][c] = C[r][c] for the rows and columns amxCompute computed (16 or 32 of each).
void amxStore(uint32_t rows, uint32_t cols, int32_t* acc);
// sums[r] = sum of the first k bytes of row r (as int8 if signedA), r < rows.
void amxRowSums(bool signedA, const uint8_t* a, size_t lda, uint32_t rows, uint32_t k,
                int32_t* sums);
// out[r * ldo + c] = clamp(requantize(acc[r][c] + columnOffset[c] + rowOffset[r]) + outZero)
// for r < rows, c < cols <= kConvTileN: convRequantize* of a whole block, the per-column terms
// loaded once (AVX-512 only, no tile instruction). rowOffset may be null (all zero).
// sumsInRange: the caller guarantees acc[r][c] + rowOffset[r] + columnOffset[c] never wraps
// int32 (bounded sums), which lets the column term join the 64-bit rounding constant.
template <typename TOut>
using AmxRequantizeBlockFn = void(const int32_t* acc, uint32_t rows, uint32_t cols,
                                  const int32_t* columnOffset, const int32_t* rowOffset,
                                  const int32_t* multiplier, const int32_t* shift,
                                  int32_t outZero, int32_t lo, int32_t hi, TOut* out, size_t ldo,
                                  bool sumsInRange);
AmxRequantizeBlockFn<uint8_t> amxRequantizeBlockU8;
AmxRequantizeBlockFn<int8_t> amxRequantizeBlockS8;
}  // namespace isa_amx

// ---- panel-stationary float32 GEMM (gemm_float_avx512.cc, driver gemm_float.cc) -----
// c[r][n] = clamp(bias[n] + sum_k a[r * lda + k] * W[n][k]) for rows [rowBegin, rowEnd) and
// output columns of packed tiles [tileBegin, tileEnd) (the float layout above, [tile][k][32],
// zero past n). Each tile's weights are read once per block of rows (not once per row tile),
// so a large weight matrix is not streamed from L3 again for every few rows.
struct GemmFloatArgs {
  uint32_t m, n, k;
  size_t lda;             // floats between consecutive rows of a
  const float* a;
  const float* packed;
  // Not null: the packed weights as float16 bits in the same layout, used instead of `packed`
  // (a float16 filter widened in the kernel: the same products, half the bytes).
  const uint16_t* packedHalf;
  const float* bias;      // [n]; null: zero
  float outputMin, outputMax;
  float* c;               // [m][n]
  // Row blocks last to first (same values): see panelGemmFloat.
  bool lastBlockFirst;
  // Optional, the residual ADD that alone reads c (panelGemmFloatResidual): each clamped
  // result plus res[r][col] (zero from col = resC on: a zero channel PAD of the shortcut),
  // clamped to [addMin, addMax] as the ADD clamps (a NaN sum stays NaN), is what c receives.
  // Each register block reads its rows' residual before it writes them, so c may be res.
  const float* res;       // [m][resC]; null: none
  uint32_t resC;
  float addMin, addMax;
};
using GemmFloatPanelsFn = void(const GemmFloatArgs& g, uint32_t rowBegin, uint32_t rowEnd,
                               uint32_t tileBegin, uint32_t tileEnd);
// One full tile of the float weight layout: kConvTileN source rows of k weights (float32, or
// float16 bits widened exactly) at src, row c at src + c * k, into dst[k][kConvTileN].
using PackFloatTileFn = void(const float* src, uint32_t k, float* dst);
using PackHalfTileFn = void(const uint16_t* src, uint32_t k, float* dst);
// The same layout kept in float16 bits (GemmFloatArgs::packedHalf).
using PackHalfTileBitsFn = void(const uint16_t* src, uint32_t k, uint16_t* dst);
namespace isa_avx512 {
GemmFloatPanelsFn gemmFloatPanels;
PackFloatTileFn packFloatTile;
PackHalfTileFn packHalfTile;
PackHalfTileBitsFn packHalfTileBits;
}  // namespace isa_avx512

// A float32 CONV_2D with few input channels (the models' first layer: 3 channels, 3x3 or 5x5,
// stride 2) through the panel GEMM: each output row's im2col rows ([outW][k], k = filterH *
// filterW * inC, the filter's own order) are gathered into `panel`, then multiplied by the
// packed weights (`packed`, the float layout above). Dilation 1; `conv.filter` is unused.
struct ConvIm2colFloatArgs {
  ConvDirectFloatArgs conv;
  const float* packed;
  // Not null: the output rounded to float16 bits here instead of `conv.output` (a relaxed
  // model's stem whose output the CPU driver stores in float16, stem_half.h); each row is
  // computed into the panel's tail first (outW * outC more floats).
  uint16_t* outputHalf;
};
// Output rows [rowBegin, rowEnd) (row = batch * outH + oh); `panel` holds outW * k floats
// (outW * (k + outC) with outputHalf).
using ConvIm2colFloatRowsFn = void(const ConvIm2colFloatArgs& a, size_t rowBegin, size_t rowEnd,
                                   float* panel);
namespace isa_avx512 {
ConvIm2colFloatRowsFn convIm2colFloatRows;
}  // namespace isa_avx512

}  // namespace nn
