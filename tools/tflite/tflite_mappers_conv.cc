// Mappers for the compute-heavy builtins: convolutions, pooling, FULLY_CONNECTED, BATCH_MATMUL,
// and MediaPipe's custom transposed convolution.
#include <cstring>

#include "tflite_mappers.h"

namespace nnapi_tflite {
namespace detail {

namespace {

// NNAPI's explicit dilation factors come after the data-layout flag; they are only appended
// when dilated, so undilated convolutions keep the older (wider supported) signature.
bool AppendDilation(Planner& p, const OperatorOptions& o, std::vector<uint32_t>* ins) {
  if (o.dilation_w != 1 || o.dilation_h != 1) {
    if (o.dilation_w <= 0 || o.dilation_h <= 0) return p.Fail("invalid dilation");
    ins->push_back(p.Bool(false));
    ins->push_back(p.I32(o.dilation_w));
    ins->push_back(p.I32(o.dilation_h));
  }
  return true;
}

}  // namespace

bool MapPoolOp(Planner& p, const Operator& op, int32_t nn) {
  const OperatorOptions& o = op.options;
  if (!p.NeedInputs(op, 1, 1) || !p.NeedOutputs(op, 1) || !p.NeedOptions(op, opt::kPool2D) ||
      !p.PositiveStrides(o))
    return false;
  if (o.filter_w <= 0 || o.filter_h <= 0) return p.Fail("invalid filter size");
  uint32_t a = p.In(op, 0), out = p.Out(op, 0);
  if (!p.Ok({a, out})) return false;
  if (p.Rank(a) != 4) return p.Fail("input must be 4-D");
  Planner::Act act;
  if (!p.PlanAct(o.activation, out, true, &act)) return false;
  p.Emit(nn,
         {a, p.I32(Planner::PaddingCode(o.padding)), p.I32(o.stride_w), p.I32(o.stride_h), p.I32(o.filter_w),
          p.I32(o.filter_h), p.I32(act.fuse)},
         {act.main_out});
  p.FinishAct(act);
  return true;
}

bool MapConv2D(Planner& p, const Operator& op) {
  const OperatorOptions& o = op.options;
  if (!p.NeedInputs(op, 2, 3) || !p.NeedOutputs(op, 1) || !p.NeedOptions(op, opt::kConv2D) ||
      !p.PositiveStrides(o))
    return false;
  uint32_t in = p.In(op, 0), filter = p.In(op, 1), out = p.Out(op, 0);
  if (!p.Ok({in, filter, out})) return false;
  if (p.Rank(in) != 4 || p.Rank(filter) != 4) return p.Fail("input and filter must be 4-D");
  uint32_t bias = p.BiasOrZero(op, 2, in, filter, p.Operand(filter).dims[0]);
  if (!p.Ok({bias})) return false;
  Planner::Act act;
  if (!p.PlanAct(o.activation, out, true, &act)) return false;
  std::vector<uint32_t> ins = {in, filter, bias, p.I32(Planner::PaddingCode(o.padding)), p.I32(o.stride_w),
                               p.I32(o.stride_h), p.I32(act.fuse)};
  if (!AppendDilation(p, o, &ins)) return false;
  p.Emit(ANEURALNETWORKS_CONV_2D, ins, {act.main_out});
  p.FinishAct(act);
  return true;
}

bool MapDepthwiseConv2D(Planner& p, const Operator& op) {
  const OperatorOptions& o = op.options;
  if (!p.NeedInputs(op, 2, 3) || !p.NeedOutputs(op, 1) || !p.NeedOptions(op, opt::kDepthwiseConv2D) ||
      !p.PositiveStrides(o))
    return false;
  uint32_t in = p.In(op, 0), filter = p.In(op, 1), out = p.Out(op, 0);
  if (!p.Ok({in, filter, out})) return false;
  if (p.Rank(in) != 4 || p.Rank(filter) != 4) return p.Fail("input and filter must be 4-D");
  uint32_t in_c = p.Operand(in).dims[3], out_c = p.Operand(filter).dims[3];
  // The options' depth_multiplier is unreliable in newer models; derive it from the shapes.
  if (in_c == 0 || out_c % in_c != 0) {
    return p.Fail("filter channels " + std::to_string(out_c) + " not a multiple of input channels " +
                  std::to_string(in_c));
  }
  uint32_t bias = p.BiasOrZero(op, 2, in, filter, out_c);
  if (!p.Ok({bias})) return false;
  Planner::Act act;
  if (!p.PlanAct(o.activation, out, true, &act)) return false;
  std::vector<uint32_t> ins = {in, filter, bias, p.I32(Planner::PaddingCode(o.padding)), p.I32(o.stride_w),
                               p.I32(o.stride_h), p.I32(static_cast<int32_t>(out_c / in_c)), p.I32(act.fuse)};
  if (!AppendDilation(p, o, &ins)) return false;
  p.Emit(ANEURALNETWORKS_DEPTHWISE_CONV_2D, ins, {act.main_out});
  p.FinishAct(act);
  return true;
}

bool MapTransposeConv(Planner& p, const Operator& op) {
  const OperatorOptions& o = op.options;
  // TFLite order: output_shape, weights, input[, bias].
  if (!p.NeedInputs(op, 3, 4) || !p.NeedOutputs(op, 1) || !p.NeedOptions(op, opt::kTransposeConv) ||
      !p.PositiveStrides(o))
    return false;
  uint32_t in = p.In(op, 2), filter = p.In(op, 1), out = p.Out(op, 0);
  if (!p.Ok({in, filter, out})) return false;
  if (p.Rank(in) != 4 || p.Rank(filter) != 4) return p.Fail("input and filter must be 4-D");
  std::vector<int32_t> oshape;
  if (!p.ConstInts(p.InIdx(op, 0), &oshape)) return false;
  uint32_t bias = p.BiasOrZero(op, 3, in, filter, p.Operand(filter).dims[0]);
  if (!p.Ok({bias})) return false;
  Planner::Act act;
  if (!p.PlanAct(o.activation, out, true, &act)) return false;
  p.Emit(ANEURALNETWORKS_TRANSPOSE_CONV_2D,
         {in, filter, bias, p.I32Tensor(oshape), p.I32(Planner::PaddingCode(o.padding)), p.I32(o.stride_w),
          p.I32(o.stride_h), p.I32(act.fuse), p.Bool(false)},
         {act.main_out});
  p.FinishAct(act);
  return true;
}

bool MapFullyConnected(Planner& p, const Operator& op) {
  const OperatorOptions& o = op.options;
  if (!p.NeedInputs(op, 2, 3) || !p.NeedOutputs(op, 1) || !p.NeedOptions(op, opt::kFullyConnected)) return false;
  if (o.weights_format != 0) return p.Fail("shuffled FULLY_CONNECTED weights are not supported");
  uint32_t in = p.In(op, 0), w = p.In(op, 1), out = p.Out(op, 0);
  if (!p.Ok({in, w, out})) return false;
  if (p.Rank(w) != 2) return p.Fail("weights must be 2-D");
  uint32_t units = p.Operand(w).dims[0];
  uint32_t bias = p.BiasOrZero(op, 2, in, w, units);
  if (!p.Ok({bias})) return false;
  // NNAPI produces [batch, units]; other TFLite output ranks (keep_num_dims) get a RESHAPE.
  const std::vector<uint32_t> od = p.Operand(out).dims;
  uint32_t fc_out = out;
  bool reshape = od.size() != 2;
  if (reshape) {
    uint64_t total = 1;
    for (uint32_t d : od) total *= d;
    if (units == 0 || total % units) return p.Fail("output shape incompatible with weights");
    fc_out = p.Temp(out, {static_cast<uint32_t>(total / units), units});
  }
  Planner::Act act;
  if (!p.PlanAct(o.activation, fc_out, true, &act)) return false;
  p.Emit(ANEURALNETWORKS_FULLY_CONNECTED, {in, w, bias, p.I32(act.fuse)}, {act.main_out});
  p.FinishAct(act);
  if (reshape) {
    std::vector<int32_t> shape(od.begin(), od.end());
    p.Emit(ANEURALNETWORKS_RESHAPE, {fc_out, p.I32Tensor(shape)}, {out});
  }
  return true;
}

bool MapBatchMatMul(Planner& p, const Operator& op) {
  if (!p.NeedInputs(op, 2, 2) || !p.NeedOutputs(op, 1) || !p.NeedOptions(op, opt::kBatchMatMul)) return false;
  uint32_t a = p.In(op, 0), b = p.In(op, 1), out = p.Out(op, 0);
  if (!p.Ok({a, b, out})) return false;
  p.Emit(ANEURALNETWORKS_BATCH_MATMUL, {a, b, p.Bool(op.options.adj_x), p.Bool(op.options.adj_y)}, {out});
  return true;
}

// MediaPipe's transposed convolution: inputs (input, weights OHWI, bias); options are a raw
// struct of three int32: padding (1 = SAME, 2 = VALID), stride_width, stride_height.
bool MapConvolution2DTransposeBias(Planner& p, const Operator& op) {
  if (!p.NeedInputs(op, 3, 3) || !p.NeedOutputs(op, 1)) return false;
  if (op.custom_options_size < 12) {
    return p.Fail("custom options hold " + std::to_string(op.custom_options_size) +
                  " bytes, expected 12 (padding, stride_width, stride_height)");
  }
  int32_t raw[3];
  std::memcpy(raw, p.model().data + op.custom_options_offset, sizeof(raw));
  if (raw[0] != 1 && raw[0] != 2) return p.Fail("custom options padding " + std::to_string(raw[0]) + " unknown");
  if (raw[1] <= 0 || raw[2] <= 0) return p.Fail("invalid strides in custom options");
  uint32_t in = p.In(op, 0), filter = p.In(op, 1), bias = p.In(op, 2), out = p.Out(op, 0);
  if (!p.Ok({in, filter, bias, out})) return false;
  if (p.Rank(in) != 4 || p.Rank(filter) != 4 || p.Rank(out) != 4) {
    return p.Fail("input, weights and output must be 4-D");
  }
  // The output shape is only known from the output tensor (TFLite's op computes it).
  std::vector<int32_t> oshape = p.OutShape(op, 0);
  p.Emit(ANEURALNETWORKS_TRANSPOSE_CONV_2D,
         {in, filter, bias, p.I32Tensor(oshape),
          p.I32(raw[0] == 1 ? ANEURALNETWORKS_PADDING_SAME : ANEURALNETWORKS_PADDING_VALID), p.I32(raw[1]),
          p.I32(raw[2]), p.I32(ANEURALNETWORKS_FUSED_NONE), p.Bool(false)},
         {out});
  p.SetDetail("MediaPipe custom op");
  return true;
}

}  // namespace detail
}  // namespace nnapi_tflite
