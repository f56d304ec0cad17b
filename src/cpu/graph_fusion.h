// The fast CPU device's graph-level fusions, applied once when a model is prepared:
//  - a RELU / RELU1 / RELU6 whose input is produced by an operation with a fused-activation
//    parameter set to NONE (ADD, SUB, MUL, DIV, CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED,
//    TRANSPOSE_CONV_2D, the 2-D pools) becomes that parameter, and the RELU is dropped;
//  - a zero PAD / PAD_V2 of the H and W axes of an NHWC float32 tensor whose only reader is a
//    CONV_2D / DEPTHWISE_CONV_2D is folded into the convolution's explicit padding.
//  - a CAST of a constant float16 tensor to a float32 temporary read only as the filter of a
//    CONV_2D on float32 data is dropped and the convolution reads the float16 constant (its
//    kernels widen it exactly while packing; a form only this driver's kernels accept).
//  - in a relaxed model, where the processor has the float16 kernels (AVX512-FP16, not capped
//    by NNAPI_CPU_ISA), a float32 temporary written by an operation with a float16 kernel
//    (1x1 CONV_2D, DEPTHWISE_CONV_2D, same-shape ADD, PAD, MAX_POOL_2D) and read only by such
//    operations at the inputs their kernels read in float16 becomes TENSOR_FLOAT16 (filters
//    and biases stay as they are, ADD inputs may differ in type: forms only this driver's
//    kernels accept). This one changes values within what relaxed precision allows (float16
//    range and precision).
// The others apply only to float32 and only where the intermediate tensor is a temporary read by that
// one operation (not a model output, not read by anyone else), so every other tensor keeps its
// value; the fused forms compute the same values bit for bit (the kernels clamp with the same
// activation range either way, and padding taps read zeros exactly like padded input does).
// The reference device runs models as given. NNAPI_CPU_FUSION=0 turns the pass off (read at
// each preparation; used by the tests that compare fused and unfused runs).
#pragma once

#include <cstdint>
#include <memory>

#include "hal/types.h"

namespace nn {

struct FusionCounts {
  uint32_t activations = 0;  // RELU* folded into their producer
  uint32_t pads = 0;         // PAD / PAD_V2 folded into a convolution
  uint32_t halfFilters = 0;  // CAST of a constant float16 filter folded into its CONV_2D
  uint32_t halfTensors = 0;  // float32 temporaries of a relaxed model stored as float16
};

// True unless NNAPI_CPU_FUSION is "0".
bool cpuFusionEnabled();

// A rewritten copy of `model` (every subgraph, referenced ones included), or nullptr when no
// fusion applies. The copy keeps `model` alive and shares its constant data; it keeps the
// operand numbering, inputs and outputs; fused operations are removed from its operation
// lists. `counts` (optional) receives what was fused.
std::shared_ptr<const Model> fuseForCpu(const std::shared_ptr<const Model>& model,
                                        FusionCounts* counts);

}  // namespace nn
