// A relaxed model's inverted bottleneck on a small map — 1x1 expansion (k -> h channels),
// DEPTHWISE_CONV_2D, 1x1 projection (h -> n) and optionally the residual ADD — run as ONE
// parallel region (block_half.cc) instead of one pool job per layer. On small maps each layer
// takes 2-30 us, and split apart over two threads the layers lost much of their gain to the
// pool's hand-off and join per layer, uneven splits, and each layer reading the rows the other
// core wrote. Here each thread takes a share of the hidden channels: it expands them for the
// whole (small) map from the block input, runs the depthwise layer on exactly those channels
// (no halo: its data stays in its own caches) and multiplies them by its columns of the
// projection into float32 partial sums of the n outputs; the partials are then added up with
// bias, clamp and the residual (isa/block_half_isa.h), in pieces of rows taken by the shares
// that finish while the others still run (no second hand-off). The expansion and the depthwise
// layer give the same bits as apart (same kernels per channel); only the projection's
// summation order changes: its sums over h are split into the threads' float32 partials (the
// layer apart sums the same 32-term float16 blocks into one float32 sum, or with h <= 128 and a
// float16 output adds them in float16), within float16's bound.
#pragma once

#include <cstdint>
#include <vector>

#include "cpu/kernels/conv_common.h"
#include "cpu/kernels/gemm_half.h"
#include "cpu/kernels/isa/gemm_half_isa.h"
#include "cpu/thread_pool.h"

namespace nn {
namespace conv {

// Per thread share of the hidden channels [c0, c1): its expansion rows, depthwise channels
// and projection columns, packed at compilation.
struct HalfBlockChunk {
  uint32_t c0 = 0, c1 = 0;
  PackedHalfWeights expand;       // [c1 - c0][k]
  std::vector<float> expandBias;  // [c1 - c0]
  PackedHalfDepthwise depthwise;  // [taps][c1 - c0]
  PackedHalfWeights project;      // [n][c1 - c0]
};
struct PackedHalfBlock {
  std::vector<HalfBlockChunk> chunks;
};

// Splits h hidden channels into `chunks` shares (boundaries at multiples of 32 channels) and
// packs the weights: expansion filter [h][k] and bias [h], depthwise filter [taps][h] and
// bias [h], projection filter [n][h], all float32 (float16 filters widened exactly).
void packHalfBlock(const float* expand, const float* expandBias, const float* depthwise,
                   const float* depthwiseBias, const float* project, uint32_t k, uint32_t h,
                   uint32_t n, uint32_t taps, uint32_t chunks, PackedHalfBlock* out);

// Where it measured faster (hand_landmark_lite/full relaxed, two threads, the blocks' time in
// the per-operation profile against their layers apart, alternating runs, minimums): blocks
// ending on a 7x7 map, from 7x7 or 14x14 (lite 0.92-0.95, full 0.91-0.93 over those blocks).
// Not on larger maps: 14x14 blocks came out even (lite) or mixed (full), 28x28 ones slower
// (lite 1.16-1.22), where each layer apart already splits well and a share's partial sums are
// as large as the map.
constexpr uint32_t kHalfBlockMaxPixels = 14 * 14;   // the block's input map
constexpr uint32_t kHalfBlockMaxOutPixels = 8 * 8;  // its output map
// Only expansions (hidden channels at least this many times the block's input channels; the
// hand landmark models expand 6x): there each share's work is large against the partial sums
// of the n outputs that the reduction adds up. BlazeFace full range's 384 -> 96 ->
// 384 blocks on 6x6 maps, split the same way, were slower than apart (28-31 against 24 us).
constexpr uint32_t kHalfBlockMinExpansion = 4;

struct HalfBlock {
  const PackedHalfBlock* packed = nullptr;
  uint32_t inPixels = 0, outPixels = 0;  // batches * H * W of the expansion and of the output
  uint32_t k = 0, n = 0;
  const float* a = nullptr;  // block input [inPixels][k], float32 ...
  const Half* ah = nullptr;  // ... or float16 (exactly one set)
  int32_t expandActivation = 0;
  // The depthwise layer's geometry and clamp (channels, pointers and filter set per share).
  DepthwiseHalfArgs depthwise{};
  bool depthwiseChannelRows = false;  // the by-channel-group kernel (else by rows)
  const float* projectBias = nullptr;
  int32_t projectActivation = 0;
  bool roundProject = false;  // the projection's output tensor is float16 and an ADD follows
  const float* res = nullptr;  // the residual [outPixels][n] float32 ...
  const Half* resH = nullptr;  // ... or float16, or neither (no ADD)
  int32_t addActivation = 0;
  float* out = nullptr;  // [outPixels][n] float32 ...
  Half* outH = nullptr;  // ... or float16
};

// Only where halfGemmAvailable().
void halfBlock(const HalfBlock& f, ThreadPool* pool, KernelScratch& ks);

}  // namespace conv
}  // namespace nn
