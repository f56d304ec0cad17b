// The fast device's own convolution kernels, used where XNNPACK is not (quant8 always;
// float16; float32 without constant weights or without XNNPACK): packed GEMMs (im2col rows
// times weights repacked into column tiles; conv_gemm.cc) with an int8 dot-product
// micro-kernel whose requantization is bit-exact with the reference, and channel-vectorized
// depthwise loops (conv_depthwise.cc). Their inner loops are chosen per processor at run time
// (conv_dispatch.h); quant8 results are the same at every ISA level.
// Inputs and outputs are NHWC. `ks` is the calling execution's scratch; the kernels allocate
// nothing once it has grown to the sizes they need.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "cpu/kernels/conv_common.h"
#include "cpu/prefaulted_buffer.h"
#include "cpu/thread_pool.h"
#include "spec/ops/conv.h"

namespace nn {
namespace conv {

// Weights W[n][k] (row-major, k contiguous) repacked into column tiles for the float GEMM.
// Layout: [tile of kTileN columns][k][kTileN], the last tile's missing columns zero.
// packFloatWeightsHalf keeps a float16 filter's bits in `half` instead (same layout, `data`
// empty): only the panel GEMM (GemmFloatArgs::packedHalf) reads that form.
struct PackedFloatWeights {
  uint32_t n = 0, k = 0;
  PrefaultedArray<float> data;
  PrefaultedArray<uint16_t> half;
  bool halfPanels() const { return !half.empty(); }
};
// Single-threaded on purpose: split over the driver's pool at compilation, each of ~100
// convolutions waited for a worker that another process had preempted (pose_landmark_heavy
// at 2 threads on a loaded machine: compilation 2-4x slower than serial packing).
void packFloatWeights(const float* w, uint32_t n, uint32_t k, PackedFloatWeights* out);
// The same from a float16 filter (a CONV_2D whose constant float16 weights feed float32 data
// after the driver's fusion, graph_fusion.h): widened a tile at a time, bit-exact with widening
// the whole filter first.
void packFloatWeights(const Half* w, uint32_t n, uint32_t k, PackedFloatWeights* out);
// The float16 panels of a 1x1 CONV_2D the panel GEMM runs (halfPanelsPreferred): false, with
// nothing packed, where this processor has no such kernel.
bool packFloatWeightsHalf(const Half* w, uint32_t n, uint32_t k, PackedFloatWeights* out);

// Weights repacked for the int8 dot-product GEMM: signed bytes, k padded to a multiple of 4,
// with per-column sums for the zero-point corrections.
struct PackedQuantWeights {
  uint32_t n = 0, k = 0, k4 = 0;
  bool unsignedSource = true;       // source bytes were uint8 (stored minus 128)
  int32_t zeroPointPrime = 0;       // filter zero point in the stored (signed) domain
  std::vector<int8_t> data;
  std::vector<int32_t> columnSums;  // sum over k of the stored values, per column
  // The same tiles with k padded to k64 (a multiple of 64) for the AMX-INT8 GEMM
  // (conv_amx.h); empty where AMX is not usable.
  uint32_t k64 = 0;
  std::vector<int8_t> amxData;
};
void packQuantWeights(const void* w, bool unsignedSource, int32_t zeroPoint, uint32_t n,
                      uint32_t k, PackedQuantWeights* out);

// Convolution as im2col + GEMM (no copy for 1x1 stride-free cases). Input/output NHWC.
void fastConvFloat(const Geometry& g, const float* input, const PackedFloatWeights& w,
                   const float* bias, float* output, ThreadPool* pool, KernelScratch& ks);
void fastConvQuant(const Geometry& g, const QuantParams& q, bool signedData, const void* input,
                   const PackedQuantWeights& w, const int32_t* bias, void* output,
                   ThreadPool* pool, KernelScratch& ks);
void fastDepthwiseFloat(const Geometry& g, const float* input, const float* filter,
                        const float* bias, float* output, ThreadPool* pool, KernelScratch& ks);
// A quant8 depthwise filter prepared for fastDepthwiseQuant.
struct PackedDepthwiseFilter {
  uint32_t taps = 0, channels = 0;
  std::vector<int16_t> minusZero;    // [taps][channels], zero point removed
  std::vector<int16_t> interleaved;  // tap pairs interleaved for the AVX-512 kernel (may be empty)
};
void packDepthwiseFilter(const void* filter, OperandType type, int32_t zeroPoint, uint32_t taps,
                         uint32_t channels, PackedDepthwiseFilter* out);
void fastDepthwiseQuant(const Geometry& g, const QuantParams& q, bool signedData,
                        const void* input, const PackedDepthwiseFilter& filter,
                        const int32_t* bias, void* output, ThreadPool* pool, KernelScratch& ks);

void fastFullyConnectedFloat(uint32_t batches, int32_t activation, const float* input,
                             const PackedFloatWeights& w, const float* bias, float* output,
                             ThreadPool* pool, KernelScratch& ks);
void fastFullyConnectedQuant(uint32_t batches, const QuantParams& q, bool signedData,
                             const void* input, const PackedQuantWeights& w,
                             const int32_t* bias, void* output, ThreadPool* pool,
                             KernelScratch& ks);

// ---- direct float32 kernels (conv_direct.cc) ----------------------------------------------
// Where the AVX-512 direct kernels measured faster than XNNPACK (bench/direct_bench.cc) for
// float32 NHWC data; false when this processor (or NNAPI_CPU_ISA) has none. The convolution's
// init then skips XNNPACK and its portable path runs the direct kernel.
bool directDepthwisePreferred(const Geometry& g);
// The narrow-map depthwise kernel (depthwise_small.cc): whether this processor has it for g's
// window (depth multiplier 1, dilation 1, filter width 3 or 5, horizontal stride 1 or 2), and
// whether it is the one to run (narrow maps; NNAPI_CPU_DW_SMALL_MAP=0 turns it off). Same bits
// as the row kernel; `pool` may be null.
bool smallMapDepthwiseAvailable(const Geometry& g);
bool smallMapDepthwisePreferred(const Geometry& g);
void smallMapDepthwiseFloat(const Geometry& g, const float* input, const float* filter,
                            const float* bias, float* output, ThreadPool* pool);
bool narrowConvPreferred(const Geometry& g);
// CONV_2D with few output channels; filter as given, [outC][kh][kw][inC]. Only where
// narrowConvAvailable(g).
bool narrowConvAvailable(const Geometry& g);
// `pool`, or null (run on the calling thread) for a convolution too small to split: the
// threshold XNNPACK's operators get (xnnThreadPool).
ThreadPool* directPool(ThreadPool* pool, const Geometry& g, uint32_t macsPerOutput);
// `pool`, or null, for a depthwise convolution (float32 or float16): memory-bound, it splits
// from 16K input or output elements (as the elementwise kernels, elementwise.h), not from
// XNNPACK's 400K multiply-accumulates (conv_direct.cc has the measurements).
ThreadPool* depthwisePool(ThreadPool* pool, const Geometry& g);
void fastNarrowConvFloat(const Geometry& g, const float* input, const float* filter,
                         const float* bias, float* output, ThreadPool* pool, KernelScratch& ks);

// Whether splitPanelGemm gives each of `slots` threads a share of the weight tiles (rather
// than of the rows): when the tiles divide evenly and the weights outweigh the input and output
// rows together. Layers that read this GEMM's output follow the same rule (depthwise_small.cc).
inline bool panelGemmSplitsTiles(uint32_t m, uint32_t n, uint32_t k, uint32_t tileN,
                                 size_t slots) {
  const uint32_t tiles = (n + tileN - 1) / tileN;
  const bool evenTiles = (n % tileN == 0 && tiles % slots == 0) || tiles >= 4 * slots;
  return evenTiles && static_cast<double>(k) * n >= static_cast<double>(m) * (k + n);
}

// The thread split of the weight-panel GEMMs (float32 and float16): fn(rowBegin, rowEnd,
// tileBegin, tileEnd, slot). One call on the caller below `kMinParallelMacs`. Threads take whole
// weight tiles (each reads its share of the weights and all of A, half of it from the other
// core's cache, and leaves the next operation, which splits rows, half of its input there too)
// when the tiles divide evenly (full and a multiple of the thread count, or many) and the
// weights outweigh A and C together (k*n >= m*(k+n)); else row ranges in multiples of
// `rowAlign` rows (each thread reads its share of A, in its own cache since the producing
// operation split the same rows, and all the weights). hand_landmark_lite, 2 threads:
// 14x14x288->64 took as long as on one thread with tiles. hand_landmark_full/lite and
// pose_landmark_full/lite, 2 threads, both splits interleaved in one process: the 14x14 and
// 16x16 expansions (k 48-112, n 288-672, where the weights are the smaller operand) took
// 0.83-0.94x the time by rows and the depthwise layer after them 0.77-0.94x; the 7x7/8x8 ones
// (k 192-1152, n 576-1152) stayed on tiles (rows: 1.1x); tiles that do not divide evenly
// (8x8x576->96: 3 tiles) took 1.3x rows' time.
// Below kMinParallelMacs the call stays on the caller, except where the weights alone are
// large and split by tiles: such a layer (the pose landmark models' 2x2x288->288 layers, 83K
// weights, 330 KB in float32, 331K multiply-adds) is bound by reading its weights from L3, one
// core about 26 GB/s here; each thread then reads half of them. pose_landmark_full, 2 threads,
// both in one process: those six layers 12.5 -> 7.5 us each.
template <typename Fn>
void splitPanelGemm(ThreadPool* pool, uint32_t m, uint32_t n, uint32_t k, uint32_t tileN,
                    uint32_t rowAlign, const Fn& fn) {
  constexpr double kMinParallelMacs = 400000.0;  // as xnnpack_util.h
  constexpr double kMinParallelWeights = 65536.0;
  const uint32_t tiles = (n + tileN - 1) / tileN;
  const int threads = pool != nullptr ? pool->numThreads() : 1;
  const bool weightBound =
      threads > 1 && static_cast<double>(k) * n >= kMinParallelWeights &&
      panelGemmSplitsTiles(m, n, k, tileN, static_cast<size_t>(threads));
  if (threads <= 1 || (static_cast<double>(m) * n * k < kMinParallelMacs && !weightBound)) {
    fn(uint32_t{0}, m, uint32_t{0}, tiles, size_t{0});
    return;
  }
  const size_t slots = static_cast<size_t>(threads);
  if (panelGemmSplitsTiles(m, n, k, tileN, slots)) {
    const size_t units = (m + rowAlign - 1) / rowAlign;  // row units per tile
    if (tiles % slots == 0 || units < 2) {
      runSlots(pool, tiles, std::min<size_t>(slots, tiles), [&](size_t b, size_t e, size_t s) {
        fn(uint32_t{0}, m, static_cast<uint32_t>(b), static_cast<uint32_t>(e), s);
      });
      return;
    }
    // Tiles that do not divide evenly (pose_landmark's 8x8x864->288: 9 tiles went 4 / 5, the
    // second thread 11% over the mean): each thread an equal share of the (tile, row unit)
    // pairs in tile order, i.e. whole tiles and at most part of the rows of one tile at each
    // end of its share. A part of a tile costs its rows a second pass over that tile's weights.
    auto rowOf = [&](size_t u) {
      return static_cast<uint32_t>(std::min<size_t>(m, u * rowAlign));
    };
    runSlots(pool, tiles * units, slots, [&](size_t b, size_t e, size_t s) {
      if (b % units != 0) {  // the end of a tile the previous share began
        const size_t t = b / units, u1 = std::min(units, b % units + (e - b));
        fn(rowOf(b % units), rowOf(u1), static_cast<uint32_t>(t), static_cast<uint32_t>(t + 1),
           s);
        b = t * units + u1;
      }
      if (e - b >= units) {  // whole tiles
        fn(uint32_t{0}, m, static_cast<uint32_t>(b / units), static_cast<uint32_t>(e / units), s);
        b = e / units * units;
      }
      if (b < e) {  // the start of a tile the next share ends
        fn(uint32_t{0}, rowOf(e - b), static_cast<uint32_t>(b / units),
           static_cast<uint32_t>(b / units + 1), s);
      }
    });
    return;
  }
  const size_t units = (m + rowAlign - 1) / rowAlign;
  runSlots(pool, units, std::min(slots, units), [&](size_t b, size_t e, size_t s) {
    fn(static_cast<uint32_t>(b * rowAlign), static_cast<uint32_t>(std::min<size_t>(m, e * rowAlign)),
       uint32_t{0}, tiles, s);
  });
}

// ---- weight-stationary float32 GEMM (gemm_float.cc) -------------------------------
// Whether this processor (and NNAPI_CPU_ISA) has the AVX-512 panel GEMM.
bool panelGemmAvailable();
// A 1x1 CONV_2D whose GEMM rows are the input pixels in place (no padding, stride 1, dilation
// irrelevant), where the panel GEMM measured faster than XNNPACK (bench/direct_bench.cc): the
// convolution's init then skips XNNPACK and packs the weights for fastConvFloat.
bool panelGemmPreferred(const Geometry& g);
// A float16 filter of such a layer kept in float16 panels (packFloatWeightsHalf): where the
// GEMM has few rows to reuse each weight over, so reading half the bytes matters more than the
// widening in the inner loop.
bool halfPanelsPreferred(const Geometry& g);
// c[m][n] = clamp(bias + a[m][k] * W^T) with row r of a at a + r * lda; `pool` may be null.
// Allocates nothing. Only where panelGemmAvailable().
// A CONV_2D with at most 4 input channels and a window larger than 1x1, dilation 1 (the first
// layer of image models), where the per-row im2col into the panel GEMM measured faster than
// XNNPACK; the convolution's init then packs the weights for fastConvFloat, which calls
// stemGemmFloat. Only where the processor has the kernel.
bool stemGemmPreferred(const Geometry& g);
// With `outputHalf` the results go there rounded to float16 instead of to `output`.
void stemGemmFloat(const Geometry& g, const float* input, const PackedFloatWeights& w,
                   const float* bias, float* output, ThreadPool* pool, KernelScratch& ks,
                   uint16_t* outputHalf = nullptr);
void panelGemmFloat(uint32_t m, const float* a, size_t lda, const PackedFloatWeights& w,
                    const float* bias, int32_t activation, float* c, ThreadPool* pool);
// panelGemmFloat with the residual ADD that alone reads its output in the GEMM's epilogue
// (GemmFloatArgs::res): c = clampAdd(clamp(conv) + res), res [m][resC] with zeros from column
// resC on (the zero channel PAD of a widening shortcut); c may be res. The two layers' bits.
void panelGemmFloatResidual(uint32_t m, const float* a, size_t lda, const PackedFloatWeights& w,
                            const float* bias, int32_t activation, const float* res,
                            uint32_t resC, int32_t addActivation, float* c, ThreadPool* pool);

// ---- a 1x1 expansion and the depthwise layer reading it, in rows (gemm_float.cc) ---------
// A CONV_2D that takes the panel GEMM (`expand`, panelGemmPreferred) whose output only a
// float32 3x3 stride-2 DEPTHWISE_CONV_2D that would run on XNNPACK (`depthwise`: depth
// multiplier 1, dilation 1, NHWC) reads. The expansion of a high-resolution map is larger than L2
// (hand_landmark: 112x112x16->64, 3.2 MB), so run one after the other the depthwise layer
// reads it back from L3 or memory. Here each thread takes a contiguous range of depthwise
// output rows and, one 32-channel tile at a time, expands the input rows each output row's
// window needs into a ring of 4 rows (a row the previous window read is kept, not
// recomputed) and computes the output row from the ring while it is in L1/L2. Same values as the
// two layers run apart: the GEMM rows are the same dot products, and the depthwise row kernel
// sums in XNNPACK's order (convDepthwise3x3FloatRowXnnOrder).
struct ExpandDepthwise {
  Geometry expand, depthwise;
  const PackedFloatWeights* weights = nullptr;
  const float* expandBias = nullptr;
  const float* depthwiseFilter = nullptr;  // [kh][kw][channels]
  const float* depthwiseBias = nullptr;
};
// Whether the kernels exist for the pair (AVX-512: the panel GEMM and the depthwise row
// kernel) and the expansion is large enough to gain.
bool expandDepthwiseAvailable(const ExpandDepthwise& f);
void expandDepthwiseFloat(const ExpandDepthwise& f, const float* input, float* output,
                          ThreadPool* pool, KernelScratch& ks);
}  // namespace conv
}  // namespace nn
