// Run-time choice of the convolution family's micro-kernels: one table per process, filled
// from nn::isaLevel() / nn::cpuFeatures() (so capped by NNAPI_CPU_ISA) the first time a kernel
// asks. Every entry has a portable build (isa_baseline, in conv_dispatch.cc); wider builds are in
// src/cpu/kernels/isa/. The quant8 entries give identical results at every level.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cpu/kernels/conv_common.h"
#include "cpu/kernels/isa/conv_isa.h"

namespace nn {
namespace conv {

struct ConvIsaKernels {
  ConvFloatMicroKernelFn* floatMicroKernel;
  ConvQuantMicroKernelFn* quantMicroKernel;
  ConvRequantizeFn<uint8_t>* requantizeU8;
  ConvRequantizeFn<int8_t>* requantizeS8;
  // The pairwise depthwise kernel (depth multiplier 1, interleaved filter); null when this
  // level has none and the portable loop runs instead.
  ConvDepthwiseQuantRowsFn<uint8_t>* depthwiseQuantRowsU8;
  ConvDepthwiseQuantRowsFn<int8_t>* depthwiseQuantRowsS8;
  ConvFloatRowsFn<ConvDepthwiseFloatArgs>* depthwiseFloatRows;
  ConvFloatRowsFn<ConvTransposeFloatArgs>* transposeFloatRows;
  // Direct float32 kernels (conv_direct.cc chooses them per shape); null below AVX-512:
  // depthwise with depth multiplier 1, and CONV_2D with few output channels at dilation 1.
  ConvFloatRowsFn<ConvDepthwiseFloatArgs>* depthwiseFloatRowsDirect;
  ConvFloatRowsFn<ConvDirectFloatArgs>* narrowConvFloatRows;
  // The weight-stationary float32 GEMM (gemm_float.cc); null below AVX-512.
  GemmFloatPanelsFn* gemmFloatPanels;
  // Packing a full 32-column tile of its weights, transposed in registers; null below AVX-512
  // (conv_gemm.cc's scalar loop).
  PackFloatTileFn* packFloatTile;
  PackHalfTileFn* packHalfTile;
  PackHalfTileBitsFn* packHalfTileBits;
  // Few-input-channel CONV_2D as per-row im2col + the panel GEMM; null below AVX-512.
  ConvIm2colFloatRowsFn* im2colFloatRows;
  // Depthwise on narrow maps, runs of output columns with their edges (conv_depthwise.cc
  // chooses it per shape); null below AVX-512.
  ConvDepthwiseFloatUnitsFn* depthwiseFloatSmallMap;
  // One row of a 3x3 depthwise in XNNPACK's summation order (the band fusion's stand-in for
  // a depthwise layer XNNPACK runs); null below AVX-512.
  ConvDepthwise3x3RowFn* depthwise3x3FloatRowXnnOrder;
  // One row of the 3x3 depthwise + 1x1 projection pair at channels % 16 == 8
  // (depthwise_project.cc); null below AVX-512.
  DepthwiseProjectRowFn* depthwiseProjectRow;
};

const ConvIsaKernels& convIsaKernels();

// Requantizes one row through the table (the templates pick the U8/S8 entry).
inline void requantizeRow(const ConvIsaKernels& k, const int32_t* acc, const int32_t* add,
                          int32_t rowOffset, const int32_t* multiplier, const int32_t* shift,
                          int32_t outZero, int32_t lo, int32_t hi, uint32_t count, uint8_t* out) {
  k.requantizeU8(acc, add, rowOffset, multiplier, shift, outZero, lo, hi, count, out);
}
inline void requantizeRow(const ConvIsaKernels& k, const int32_t* acc, const int32_t* add,
                          int32_t rowOffset, const int32_t* multiplier, const int32_t* shift,
                          int32_t outZero, int32_t lo, int32_t hi, uint32_t count, int8_t* out) {
  k.requantizeS8(acc, add, rowOffset, multiplier, shift, outZero, lo, hi, count, out);
}

// ---- argument blocks of the row kernels ----------------------------------------------------

// The window fields every argument block of conv_isa.h has (sizes, strides, leading padding),
// from g. The blocks stay plain structs for the ISA units; this fills them on the baseline side.
template <typename Args>
void setWindowArgs(const Geometry& g, Args* a) {
  a->batches = g.batches;
  a->inH = g.inH;
  a->inW = g.inW;
  a->inC = g.inC;
  a->outH = g.outH;
  a->outW = g.outW;
  a->filterH = g.filterH;
  a->filterW = g.filterW;
  a->strideH = g.p.strideH;
  a->strideW = g.p.strideW;
  a->padTop = g.p.padTop;
  a->padLeft = g.p.padLeft;
}

// A float32 block: the window, the activation bounds and the buffers.
template <typename Args>
void setFloatArgs(const Geometry& g, const float* input, const float* filter, const float* bias,
                  float* output, Args* a) {
  setWindowArgs(g, a);
  activationRangeFloat(g.p.activation, &a->outputMin, &a->outputMax);
  a->input = input;
  a->filter = filter;
  a->bias = bias;
  a->output = output;
}

// Runs a float32 row kernel of the table over every output row (batches * outH) in parallel,
// each thread with one float accumulator per output channel.
template <typename Args>
void runFloatRows(ConvFloatRowsFn<Args>* rows, const Args& a, const Geometry& g, ThreadPool* pool,
                  KernelScratch& ks) {
  runSlotted<float>(pool, ks, static_cast<size_t>(g.batches) * g.outH, g.outC,
                    [&](size_t begin, size_t end, float* acc) { rows(a, begin, end, acc); });
}

}  // namespace conv
}  // namespace nn
