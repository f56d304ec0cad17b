// The reference device's convolution kernels: direct transcriptions of the spec formulas
// (NHWC, one output element at a time), with no packing, threading or ISA-specific code, so
// they give the same bytes on every x86-64.
#pragma once

#include <cstdint>

#include "spec/ops/conv.h"

namespace nn {
namespace conv {

void refConvFloat(const Geometry& g, const float* input, const float* filter, const float* bias,
                  float* output);
void refDepthwiseFloat(const Geometry& g, const float* input, const float* filter,
                       const float* bias, float* output);
// TIn: uint8_t or int8_t. TFilter: uint8_t or int8_t (per-channel filters are int8).
template <typename TIn, typename TFilter>
void refConvQuant(const Geometry& g, const QuantParams& q, const TIn* input,
                  const TFilter* filter, const int32_t* bias, TIn* output);
template <typename TIn, typename TFilter>
void refDepthwiseQuant(const Geometry& g, const QuantParams& q, const TIn* input,
                       const TFilter* filter, const int32_t* bias, TIn* output);

// FULLY_CONNECTED: input [batches, k], weights [units, k].
void refFullyConnectedFloat(uint32_t batches, uint32_t units, uint32_t k, int32_t activation,
                            const float* input, const float* weights, const float* bias,
                            float* output);
template <typename T>
void refFullyConnectedQuant(uint32_t batches, uint32_t units, uint32_t k, const QuantParams& q,
                            const T* input, const T* weights, const int32_t* bias, T* output);

}  // namespace conv
}  // namespace nn
