// Shared machinery of CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED: signature parsing
// and validation, shape inference, quantization parameters, layout transposition, the
// reference kernels (simple loops that mirror the spec formulas) and the fast kernels
// (packed GEMM with an AVX-512 VNNI micro-kernel for quant8, vectorized float GEMM and
// depthwise loops) that the CPU device uses when XNNPACK cannot be.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cpu/thread_pool.h"
#include "cpu/xnnpack_util.h"
#include "spec/ops/common.h"
#include "ops/operation.h"

namespace nn {
namespace conv {

// ---- signature ----------------------------------------------------------------------------

// Where each scalar of a CONV_2D / DEPTHWISE_CONV_2D signature sits.
struct Signature {
  bool explicitPadding = false;
  int32_t padding = -1;          // implicit: padding code input
  int32_t padLeft = -1, padRight = -1, padTop = -1, padBottom = -1;  // explicit
  int32_t strideW = -1, strideH = -1;
  int32_t depthMultiplier = -1;  // depthwise only
  int32_t activation = -1;
  int32_t layout = -1;           // optional BOOL (NCHW when true)
  int32_t dilationW = -1, dilationH = -1;
};

// Works out which form the inputs use from their count and the type of input 7 (CONV_2D) or
// 8 (DEPTHWISE_CONV_2D): INT32 there means explicit padding, BOOL the implicit form with a
// layout flag. On failure returns false with a message in *error.
bool parseSignature(uint32_t numInputs, bool depthwise, OperandType splitType, Signature* sig,
                    std::string* error);

Status validateConv(ValidationContext& c, bool depthwise);

// ---- pieces shared by the whole convolution family -----------------------------------------
// (CONV_2D, DEPTHWISE_CONV_2D, GROUPED_CONV_2D, TRANSPOSE_CONV_2D, FULLY_CONNECTED; input 0 is
// the data, 1 the filter/weights, 2 the bias, output 0 the result.)

bool isQuant(OperandType t);  // TENSOR_QUANT8_ASYMM or TENSOR_QUANT8_ASYMM_SIGNED

// A constant input whose value and shape are both known (so weights can be packed once).
bool constantInput(const OpContext& ctx, uint32_t i);

// Input 0 must be float32/float16/quant8 asymm (signed needs FL4, float16 FL3).
Status checkDataType(ValidationContext& c, OperandType inType);

// Filter (input 1) must have the input's type, or be per-channel for quant8 inputs (FL3).
Status checkFilterType(ValidationContext& c, OperandType inType, bool* perChannel);

// A per-channel filter needs scales along `channelDim`, one per channel. `channelWord`
// ("channels" / "output channels") only shapes the message.
Status checkPerChannelFilter(ValidationContext& c, uint32_t channelDim, const char* channelWord);

// The operand checks of GROUPED_CONV_2D and TRANSPOSE_CONV_2D: types of input/filter/bias/
// output, ranks 4/4/1, per-channel scales along dimension 0.
Status validateTensorOperands(ValidationContext& c);

// ---- geometry ----------------------------------------------------------------------------

struct Params {
  int32_t padLeft = 0, padRight = 0, padTop = 0, padBottom = 0;
  int32_t strideW = 1, strideH = 1;
  int32_t dilationW = 1, dilationH = 1;
  int32_t depthMultiplier = 1;
  int32_t activation = 0;
  bool nchw = false;
};

// All sizes in NHWC terms (the layout flag only affects how input/output are stored).
struct Geometry {
  Params p;
  uint32_t batches = 0, inH = 0, inW = 0, inC = 0;
  uint32_t outH = 0, outW = 0, outC = 0;
  uint32_t filterH = 0, filterW = 0;
};

// Reads the scalar parameters and shapes and checks every shape rule. Returns kDeferred
// when a needed scalar has no value yet (only possible at compilation).
Status resolveGeometry(OpContext& ctx, bool depthwise, Geometry* g);

void nchwToNhwc(const void* in, void* out, uint32_t n, uint32_t c, uint32_t h, uint32_t w,
                uint32_t elemSize);
void nhwcToNchw(const void* in, void* out, uint32_t n, uint32_t h, uint32_t w, uint32_t c,
                uint32_t elemSize);

// Grow-only per-thread scratch for the layout copies: steady-state executions reuse it
// instead of allocating. Slot 0 holds the NHWC input, slot 1 the NHWC output.
uint8_t* layoutScratch(int slot, size_t bytes);

// Calls fn(const void* input, void* output) -> Status with NHWC buffers: the operands
// themselves for NHWC, transposed copies when the layout flag selects NCHW.
template <typename Fn>
Status withNhwcBuffers(OpContext& ctx, const Geometry& g, const Fn& fn) {
  if (!g.p.nchw) return fn(ctx.inputData(0), ctx.outputData(0));
  const uint32_t es = elementSize(ctx.inputType(0));
  uint8_t* in = layoutScratch(0, ctx.inputShape(0).bytes());
  uint8_t* out = layoutScratch(1, ctx.outputShape(0).bytes());
  nchwToNhwc(ctx.inputData(0), in, g.batches, g.inC, g.inH, g.inW, es);
  NN_RETURN_IF_ERROR(fn(static_cast<const void*>(in), static_cast<void*>(out)));
  nhwcToNchw(out, ctx.outputData(0), g.batches, g.outH, g.outW, g.outC, es);
  return kOk;
}

// Runs the kernel matching the input type on NHWC views of input 0 / output 0. Every
// convolution-family operation has one float32, one float16 and one 8-bit quantized kernel
// with this shape; `Geo` is the op's geometry, `State` its per-operation state.
template <typename Geo, typename State>
Status executeByType(OpContext& ctx, const Geometry& layout, const Geo& geo, State* st,
                     Status (*f32)(OpContext&, const Geo&, State*, const float*, float*),
                     Status (*f16)(OpContext&, const Geo&, State*, const Half*, Half*),
                     Status (*quant)(OpContext&, const Geo&, State*, const void*, void*)) {
  return withNhwcBuffers(ctx, layout, [&](const void* in, void* out) -> Status {
    switch (ctx.inputType(0)) {
      case OperandType::TENSOR_FLOAT32:
        return f32(ctx, geo, st, static_cast<const float*>(in), static_cast<float*>(out));
      case OperandType::TENSOR_FLOAT16:
        return f16(ctx, geo, st, static_cast<const Half*>(in), static_cast<Half*>(out));
      case OperandType::TENSOR_QUANT8_ASYMM:
      case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
        return quant(ctx, geo, st, in, out);
      default:
        return ctx.fail("unsupported input type %s", toString(ctx.inputType(0)));
    }
  });
}

// Runs fn(begin, end) over [0, n) on the pool (or inline without one). Templated on the
// callable and forwarded as a non-owning reference: nothing is allocated per call.
template <typename Fn>
void runParallel(ThreadPool* pool, size_t n, const Fn& fn) {
  if (n == 0) return;
  if (pool != nullptr && n > 1) {
    pool->parallelFor(n, 1, fn);
  } else {
    fn(0, n);
  }
}

// ---- quantization ------------------------------------------------------------------------

struct QuantParams {
  int32_t inputZeroPoint = 0;
  int32_t filterZeroPoint = 0;  // 0 for per-channel filters
  int32_t outputZeroPoint = 0;
  int32_t actMin = 0, actMax = 255;
  // Per output channel: Q31 multiplier and signed shift (positive = left), as produced by
  // quantizeMultiplier from input.scale * filter.scale[c] / output.scale.
  std::vector<int32_t> multiplier;
  std::vector<int32_t> shift;
};

// Fails with a message when the bias scale disagrees with input.scale * filter.scale or the
// multiplier cannot be represented.
bool computeQuantParams(const Shape& input, const Shape& filter, const Shape& bias,
                        const Shape& output, int32_t activation, uint32_t outChannels,
                        QuantParams* q, std::string* error);

// computeQuantParams for inputs 0/1/2 and output 0 of ctx; failures become ctx.fail.
Status quantParamsFor(OpContext& ctx, int32_t activation, uint32_t outChannels, QuantParams* q);

// Points *q at `cached` when there is one, else computes into *local.
Status cachedQuantParams(OpContext& ctx, int32_t activation, uint32_t outChannels,
                         const QuantParams* cached, QuantParams* local, const QuantParams** q);

// The end of prepare() for the 4-D convolutions: checks the quantization parameters of quant8
// signatures and sets output 0 to g's output shape in the operand's layout.
Status finishPrepare(OpContext& ctx, const Geometry& g);

// Fixed-point requantization identical to multiplyByQuantizedMultiplier, written without
// branches so loops over it vectorize. (With a positive Q31 multiplier the rounding
// high-multiply's "nudge then truncate" equals an arithmetic shift of ab + 2^30.)
inline int32_t requantize(int32_t x, int32_t multiplier, int32_t shift) {
  const int32_t left = shift > 0 ? shift : 0;
  const int32_t right = shift > 0 ? 0 : -shift;
  const int32_t xs = static_cast<int32_t>(static_cast<uint32_t>(x) << left);
  const int64_t ab = static_cast<int64_t>(xs) * multiplier;
  const int32_t high = static_cast<int32_t>((ab + (int64_t{1} << 30)) >> 31);
  const int32_t mask = static_cast<int32_t>((int64_t{1} << right) - 1);
  const int32_t remainder = high & mask;
  const int32_t threshold = (mask >> 1) + (high < 0 ? 1 : 0);
  return (high >> right) + (remainder > threshold ? 1 : 0);
}

// XNNPACK convolution parameters for g (padding, kernel, strides, dilation, activation
// bounds) with the given channel grouping.
XnnConvConfig xnnConvConfig(const Geometry& g, uint32_t groups, size_t groupInputChannels,
                            size_t groupOutputChannels, bool depthwise);

// ---- layout ------------------------------------------------------------------------------

// nchwToNhwc / nhwcToNchw (declared above): [N,C,H,W] <-> [N,H,W,C] for elements of
// `elemSize` bytes.

void halfToFloat(const Half* in, float* out, size_t n);
void floatToHalf(const float* in, Half* out, size_t n);

// ---- reference kernels (NHWC) ------------------------------------------------------------

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

// ---- fast kernels ------------------------------------------------------------------------

// Weights W[n][k] (row-major, k contiguous) repacked into column tiles for the float GEMM.
struct PackedFloatWeights {
  uint32_t n = 0, k = 0;
  std::vector<float> data;
};
void packFloatWeights(const float* w, uint32_t n, uint32_t k, PackedFloatWeights* out);

// Weights repacked for the int8 dot-product GEMM: signed bytes, k padded to a multiple of 4,
// with per-column sums for the zero-point corrections.
struct PackedQuantWeights {
  uint32_t n = 0, k = 0, k4 = 0;
  bool unsignedSource = true;       // source bytes were uint8 (stored minus 128)
  int32_t zeroPointPrime = 0;       // filter zero point in the stored (signed) domain
  std::vector<int8_t> data;
  std::vector<int32_t> columnSums;  // sum over k of the stored values, per column
};
void packQuantWeights(const void* w, bool unsignedSource, int32_t zeroPoint, uint32_t n,
                      uint32_t k, PackedQuantWeights* out);

// Convolution as im2col + GEMM (no copy for 1x1 stride-free cases). Input/output NHWC.
void fastConvFloat(const Geometry& g, const float* input, const PackedFloatWeights& w,
                   const float* bias, float* output, ThreadPool* pool);
void fastConvQuant(const Geometry& g, const QuantParams& q, bool signedData, const void* input,
                   const PackedQuantWeights& w, const int32_t* bias, void* output,
                   ThreadPool* pool);
void fastDepthwiseFloat(const Geometry& g, const float* input, const float* filter,
                        const float* bias, float* output, ThreadPool* pool);
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
                        const int32_t* bias, void* output, ThreadPool* pool);

void fastFullyConnectedFloat(uint32_t batches, int32_t activation, const float* input,
                             const PackedFloatWeights& w, const float* bias, float* output,
                             ThreadPool* pool);
void fastFullyConnectedQuant(uint32_t batches, const QuantParams& q, bool signedData,
                             const void* input, const PackedQuantWeights& w,
                             const int32_t* bias, void* output, ThreadPool* pool);

// True when this build has the AVX-512 VNNI micro-kernel.
bool haveVnniKernel();

}  // namespace conv
}  // namespace nn
