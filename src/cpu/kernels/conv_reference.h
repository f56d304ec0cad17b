// The reference device's convolution-family kernels: direct transcriptions of the spec
// formulas (NHWC, one output element at a time; TRANSPOSE_CONV_2D in its scatter form), with no
// packing, threading or ISA-specific code, so they give the same bytes on every x86-64. Each
// operation's table holds its float32 kernel and one quant8 kernel per data / filter type pair,
// for executeReference (conv_driver.h).
#pragma once

#include "cpu/kernels/conv_driver.h"
#include "spec/ops/conv.h"

namespace nn {
namespace conv {

extern const ReferenceKernels<Geometry> kConvReference;            // CONV_2D
extern const ReferenceKernels<Geometry> kDepthwiseReference;       // DEPTHWISE_CONV_2D
extern const ReferenceKernels<GroupedGeometry> kGroupedReference;  // GROUPED_CONV_2D
extern const ReferenceKernels<Geometry> kTransposeReference;       // TRANSPOSE_CONV_2D
extern const ReferenceKernels<FcShape> kFullyConnectedReference;   // FULLY_CONNECTED

}  // namespace conv
}  // namespace nn
