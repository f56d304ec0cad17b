// A CONV_2D 1x1 expansion and the DEPTHWISE_CONV_2D that alone reads its output, run together
// in row bands by the fast CPU device (conv_fast.h, ExpandDepthwise: why and how). The plan
// (prepared_model.cc) asks once both operations are initialized, then runs the pair at the
// depthwise layer's step and skips the expansion's; the intermediate tensor is never written.
// Same values as the two operations run apart. NNAPI_CPU_BAND_FUSION=0 turns it off.
#pragma once

#include <cstdint>
#include <memory>

#include "cpu/kernel.h"

namespace nn {
namespace conv {
struct PackedHalfBlock;  // block_half.h
}  // namespace conv

// True unless NNAPI_CPU_BAND_FUSION is "0" (read each time a model is prepared).
bool bandFusionEnabled();

// Whether `conv` (a CONV_2D after init) and `depthwise` (the DEPTHWISE_CONV_2D reading its
// output, after init), both with static shapes, can run as one banded operation: float32,
// constant weights, the expansion on the panel GEMM, the depthwise layer 3x3 stride 2 on
// XNNPACK, and an intermediate too large to stay in L2 between the layers
// (expandDepthwiseAvailable in conv_fast.h).
// Or, in a relaxed model, the float16 pair (expand_depthwise_half.h): the expansion on the
// float16 GEMM writing float16, a 3x3 stride-2 depthwise layer on the float16 kernel.
bool expandDepthwiseFusable(const OpContext& conv, const OpContext& depthwise);

// Runs the pair: reads the expansion's input, writes the depthwise layer's output.
Status runExpandDepthwise(OpContext& conv, OpContext& depthwise);
// How many of those runs were of the float16 pair (for the tests).
uint64_t expandDepthwiseHalfRuns();

// How many times runExpandDepthwise has run in this process (for the tests).
uint64_t expandDepthwiseRuns();

// The same for a DEPTHWISE_CONV_2D and the 1x1 CONV_2D that alone reads its output
// (depthwise_project.h): float32, constant weights, the depthwise layer on the direct kernel,
// the 1x1 layer on the panel GEMM, the depthwise output at least 1 MB. The plan pairs them the
// other way round: the 1x1 layer's step runs both (SubgraphPlan::kDepthwiseProject).
bool depthwiseProjectFusable(const OpContext& depthwise, const OpContext& conv);
// And the CONV_2D writing the depthwise layer's input, where only the depthwise layer reads it
// (the stem of an image model on the float32 im2col GEMM, the pixel-pair kernel for the pair:
// depthwiseProjectStemAvailable in depthwise_project.h): the 1x1 layer's step runs all three,
// the stem's step nothing. Same values as the three run apart.
bool depthwiseProjectStemFusable(const OpContext& stem, const OpContext& depthwise,
                                 const OpContext& conv);
// `stem` may be null (the pair alone).
Status runDepthwiseProject(OpContext& depthwise, OpContext& conv, OpContext* stem = nullptr);
uint64_t depthwiseProjectRuns();
uint64_t depthwiseProjectStemRuns();  // the runs with a stem

// A relaxed model's 1x1 CONV_2D on the float16 GEMM, or a float32 one on the float32 panel
// GEMM, and the ADD that alone reads its output, optionally with the zero channel PAD of the
// ADD's other input that only the ADD reads (`pad`, may be null; gemm_half_residual.h, and
// panelGemmFloatResidual in conv_fast.h): the ADD's step runs all of them (the plan's
// SubgraphPlan::kConvResidual), the convolution's and the PAD's steps nothing.
// `float32` (optional) receives whether the float32 form applies (else the float16 one).
bool convResidualFusable(const OpContext& conv, const OpContext& add, const OpContext* pad,
                         bool* float32 = nullptr);
Status runConvResidual(OpContext& conv, OpContext& add, const OpContext* pad);
uint64_t convResidualRuns();

// A relaxed model's inverted bottleneck on a map of at most kHalfBlockMaxPixels (block_half.h):
// `expand` a 1x1 CONV_2D on the float16 GEMM, `depthwise` the float16 DEPTHWISE_CONV_2D that
// alone reads its output, `project` the 1x1 CONV_2D on the float16 GEMM that alone reads the
// depthwise output, and `add` (may be null) the residual ADD that alone reads the projection's
// output as convResidualFusable takes it (no PAD), all with static shapes and constant weights,
// for a driver of at least 2 threads (`threads`, the shares of the hidden channels). Returns
// the weights packed for the block, or null where it does not apply. The plan runs the block
// at the step of `add` (else `project`): SubgraphPlan::kHalfBlock.
std::shared_ptr<const conv::PackedHalfBlock> prepareHalfBlock(const OpContext& expand,
                                                              const OpContext& depthwise,
                                                              const OpContext& project,
                                                              const OpContext* add, int threads);
Status runHalfBlock(const conv::PackedHalfBlock& packed, OpContext& expand, OpContext& depthwise,
                    OpContext& project, OpContext* add);
uint64_t halfBlockRuns();

}  // namespace nn
