// The paddings (and MIRROR_PAD's mode) of PAD, PAD_V2 and MIRROR_PAD as shape inference
// and the CPU kernels both read them. Each returns kDeferred until the values are known.
#pragma once

#include <cstdint>
#include <vector>

#include "spec/operation.h"

namespace nn {
namespace pad_ops {

constexpr int32_t kModeReflect = 0;
constexpr int32_t kModeSymmetric = 1;

// PAD: the [rank, 2] paddings tensor (input 1), every entry >= 0.
Status readPadPaddings(const ShapeContext& ctx, std::vector<int32_t>* pads);
// PAD_V2: the [rank, 2] paddings tensor (input 1), every entry in [0, INT32_MAX].
Status readPadV2Paddings(const ShapeContext& ctx, std::vector<int32_t>* pads);
// MIRROR_PAD: the mode (input 2) and paddings no larger than the mirrored extent.
Status readMirrorPadParams(const ShapeContext& ctx, int32_t* mode, std::vector<int32_t>* pads);

}  // namespace pad_ops
}  // namespace nn
