// What the convolution family (CONV_2D, DEPTHWISE_CONV_2D, GROUPED_CONV_2D, TRANSPOSE_CONV_2D,
// FULLY_CONNECTED) shares as operations: signature checks, the geometry each one derives from
// its shapes and scalars, and the requantization parameters of its quant8 forms. Shape
// inference and the CPU kernels both use these, so the rules live in one place.
// (Input 0 is the data, 1 the filter/weights, 2 the bias, output 0 the result.)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spec/operation.h"

namespace nn {
namespace conv {

bool isQuant(OperandType t);  // TENSOR_QUANT8_ASYMM or TENSOR_QUANT8_ASYMM_SIGNED

// ---- validation ----------------------------------------------------------------------------

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

// The whole signature check of CONV_2D (depthwise = false) and DEPTHWISE_CONV_2D.
Status validateConv(ValidationContext& c, bool depthwise);

// Where each scalar of a CONV_2D / DEPTHWISE_CONV_2D signature sits (input indexes, -1 when
// the form has none).
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

// ---- geometry ------------------------------------------------------------------------------

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

// CONV_2D / DEPTHWISE_CONV_2D: reads the scalar parameters and shapes and checks every shape
// rule. kDeferred when a needed scalar has no value yet (only possible at compilation).
Status resolveGeometry(const ShapeContext& ctx, bool depthwise, Geometry* g);

// GROUPED_CONV_2D: the whole tensor plus the channel split.
struct GroupedGeometry {
  Geometry g;  // whole tensor (outC = depth_out, inC = depth_in)
  uint32_t groups = 1;
  uint32_t groupIn = 0, groupOut = 0;
};
Status resolveGroupedGeometry(const ShapeContext& ctx, GroupedGeometry* gg);

// TRANSPOSE_CONV_2D: g.p.pad* may have negative tails (the output then extends past the last
// input contribution). kDeferred when a scalar or the output shape tensor has no value yet.
Status resolveTransposeGeometry(const ShapeContext& ctx, Geometry* g);

// FULLY_CONNECTED: the input flattened to [batches, inputSize], weights [units, inputSize].
struct FcShape {
  uint32_t batches = 0, units = 0, inputSize = 0;
  int32_t activation = 0;
};
Status resolveFullyConnected(const ShapeContext& ctx, FcShape* s);

// ---- quantization --------------------------------------------------------------------------

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
Status quantParamsFor(const ShapeContext& ctx, int32_t activation, uint32_t outChannels,
                      QuantParams* q);

// The end of inferShapes for the 4-D convolutions: checks the quantization parameters of
// quant8 signatures and sets output 0 to g's output shape in the operand's layout.
Status setConvOutputShape(ShapeContext& ctx, const Geometry& g);

}  // namespace conv
}  // namespace nn
