// Mappers for builtins that move data rather than compute on it: reshaping and transposing,
// concatenation/splitting/packing, slicing and gathering, padding, resizing, block rearrangement
// and FILL. NNAPI takes most of their shape-like parameters as constant tensors, so these
// mostly read TFLite constants and re-emit them as owned NNAPI constants.
#include "tflite_mappers.h"

namespace nnapi_tflite {
namespace detail {

bool MapConcatenation(Planner& p, const Operator& op) {
  const OperatorOptions& o = op.options;
  if (op.inputs.empty() || !p.NeedOutputs(op, 1) || !p.NeedOptions(op, opt::kConcatenation)) return false;
  std::vector<uint32_t> ins;
  for (size_t k = 0; k < op.inputs.size(); ++k) {
    uint32_t x = p.In(op, k);
    if (x == kNoOperand) return false;
    ins.push_back(x);
  }
  uint32_t out = p.Out(op, 0);
  if (!p.Ok({out})) return false;
  int32_t axis;
  if (!p.Axis(o.axis, p.Rank(out), &axis)) return false;
  // NNAPI's CONCATENATION has no FuseCode input: any activation is a separate operation.
  Planner::Act act;
  if (!p.PlanAct(o.activation, out, false, &act)) return false;
  ins.push_back(p.I32(axis));
  p.Emit(ANEURALNETWORKS_CONCATENATION, ins, {act.main_out});
  p.FinishAct(act);
  return true;
}

bool MapReshape(Planner& p, const Operator& op) {
  if (!p.NeedInputs(op, 1, 2) || !p.NeedOutputs(op, 1)) return false;
  uint32_t in = p.In(op, 0), out = p.Out(op, 0);
  if (!p.Ok({in, out})) return false;
  // The converter already resolved the output shape; it is the target shape NNAPI wants.
  std::vector<int32_t> shape = p.OutShape(op, 0);
  if (shape.empty()) shape.push_back(1);
  p.Emit(ANEURALNETWORKS_RESHAPE, {in, p.I32Tensor(shape)}, {out});
  return true;
}

bool MapTranspose(Planner& p, const Operator& op) {
  if (!p.NeedInputs(op, 2, 2) || !p.NeedOutputs(op, 1)) return false;
  uint32_t in = p.In(op, 0), out = p.Out(op, 0);
  if (!p.Ok({in, out})) return false;
  std::vector<int32_t> perm;
  if (!p.ConstInts(p.InIdx(op, 1), &perm)) return false;
  p.Emit(ANEURALNETWORKS_TRANSPOSE, {in, p.I32Tensor(perm)}, {out});
  return true;
}

bool MapSqueeze(Planner& p, const Operator& op) {
  if (!p.NeedInputs(op, 1, 1) || !p.NeedOutputs(op, 1) || !p.NeedOptions(op, opt::kSqueeze)) return false;
  uint32_t in = p.In(op, 0), out = p.Out(op, 0);
  if (!p.Ok({in, out})) return false;
  // No squeeze_dims means every size-1 dimension; spell them out for NNAPI.
  std::vector<int32_t> dims = op.options.squeeze_dims;
  if (dims.empty()) {
    const std::vector<uint32_t> id = p.Operand(in).dims;
    for (size_t d = 0; d < id.size(); ++d) {
      if (id[d] == 1) dims.push_back(static_cast<int32_t>(d));
    }
  }
  for (int32_t& d : dims) {
    if (!p.Axis(d, p.Rank(in), &d)) return false;
  }
  // Nothing to squeeze: an empty axes constant would have dimension 0, which NNAPI reads as
  // "unknown", so the no-op is expressed as a RESHAPE to the output shape.
  if (dims.empty()) {
    p.Emit(ANEURALNETWORKS_RESHAPE, {in, p.I32Tensor(p.OutShape(op, 0))}, {out});
  } else {
    p.Emit(ANEURALNETWORKS_SQUEEZE, {in, p.I32Tensor(dims)}, {out});
  }
  return true;
}

bool MapExpandDims(Planner& p, const Operator& op) {
  if (!p.NeedInputs(op, 2, 2) || !p.NeedOutputs(op, 1)) return false;
  uint32_t in = p.In(op, 0), out = p.Out(op, 0);
  if (!p.Ok({in, out})) return false;
  int32_t axis;
  if (!p.ConstInt(p.InIdx(op, 1), &axis)) return false;
  p.Emit(ANEURALNETWORKS_EXPAND_DIMS, {in, p.I32(axis)}, {out});
  return true;
}

bool MapStridedSlice(Planner& p, const Operator& op) {
  const OperatorOptions& o = op.options;
  if (!p.NeedInputs(op, 4, 4) || !p.NeedOutputs(op, 1) || !p.NeedOptions(op, opt::kStridedSlice)) return false;
  if (o.ellipsis_mask || o.new_axis_mask) return p.Fail("ellipsis_mask/new_axis_mask have no NNAPI equivalent");
  if (o.strided_slice_offset) return p.Fail("offset=true has no NNAPI equivalent");
  uint32_t in = p.In(op, 0), out = p.Out(op, 0);
  if (!p.Ok({in, out})) return false;
  std::vector<int32_t> b, e, s;
  if (!p.ConstInts(p.InIdx(op, 1), &b) || !p.ConstInts(p.InIdx(op, 2), &e) || !p.ConstInts(p.InIdx(op, 3), &s))
    return false;
  p.Emit(ANEURALNETWORKS_STRIDED_SLICE,
         {in, p.I32Tensor(b), p.I32Tensor(e), p.I32Tensor(s), p.I32(o.begin_mask), p.I32(o.end_mask),
          p.I32(o.shrink_axis_mask)},
         {out});
  return true;
}

bool MapSlice(Planner& p, const Operator& op) {
  if (!p.NeedInputs(op, 3, 3) || !p.NeedOutputs(op, 1)) return false;
  uint32_t in = p.In(op, 0), out = p.Out(op, 0);
  if (!p.Ok({in, out})) return false;
  std::vector<int32_t> b, s;
  if (!p.ConstInts(p.InIdx(op, 1), &b) || !p.ConstInts(p.InIdx(op, 2), &s)) return false;
  p.Emit(ANEURALNETWORKS_SLICE, {in, p.I32Tensor(b), p.I32Tensor(s)}, {out});
  return true;
}

bool MapGather(Planner& p, const Operator& op) {
  if (!p.NeedInputs(op, 2, 2) || !p.NeedOutputs(op, 1) || !p.NeedOptions(op, opt::kGather)) return false;
  if (op.options.batch_dims != 0) return p.Fail("batch_dims != 0 has no NNAPI equivalent");
  uint32_t in = p.In(op, 0), idx = p.In(op, 1), out = p.Out(op, 0);
  if (!p.Ok({in, idx, out})) return false;
  p.Emit(ANEURALNETWORKS_GATHER, {in, p.I32(op.options.axis), idx}, {out});
  return true;
}

bool MapSplit(Planner& p, const Operator& op) {
  // TFLite order: axis, input.
  if (!p.NeedInputs(op, 2, 2) || op.outputs.empty()) return false;
  uint32_t in = p.In(op, 1);
  if (!p.Ok({in})) return false;
  int32_t axis;
  if (!p.ConstInt(p.InIdx(op, 0), &axis) || !p.Axis(axis, p.Rank(in), &axis)) return false;
  std::vector<uint32_t> outs;
  for (size_t k = 0; k < op.outputs.size(); ++k) {
    uint32_t x = p.Out(op, k);
    if (x == kNoOperand) return false;
    outs.push_back(x);
  }
  p.Emit(ANEURALNETWORKS_SPLIT, {in, p.I32(axis), p.I32(static_cast<int32_t>(outs.size()))}, outs);
  return true;
}

// NNAPI's SPLIT only makes equal pieces, so unequal ones become one SLICE per output.
bool MapSplitV(Planner& p, const Operator& op) {
  if (!p.NeedInputs(op, 3, 3) || op.outputs.empty()) return false;
  uint32_t in = p.In(op, 0);
  if (!p.Ok({in})) return false;
  int32_t axis;
  if (!p.ConstInt(p.InIdx(op, 2), &axis) || !p.Axis(axis, p.Rank(in), &axis)) return false;
  const std::vector<uint32_t> id = p.Operand(in).dims;
  int32_t start = 0;
  for (size_t k = 0; k < op.outputs.size(); ++k) {
    uint32_t x = p.Out(op, k);
    if (x == kNoOperand) return false;
    const std::vector<uint32_t> xd = p.Operand(x).dims;
    if (xd.size() != id.size()) return p.Fail("output rank differs from input rank");
    std::vector<int32_t> begin(id.size(), 0), size;
    for (uint32_t d : xd) size.push_back(static_cast<int32_t>(d));
    begin[static_cast<size_t>(axis)] = start;
    start += size[static_cast<size_t>(axis)];
    p.Emit(ANEURALNETWORKS_SLICE, {in, p.I32Tensor(begin), p.I32Tensor(size)}, {x});
  }
  return true;
}

// UNPACK drops the unpacked axis; NNAPI's SPLIT keeps it, so each piece is reshaped.
bool MapUnpack(Planner& p, const Operator& op) {
  if (!p.NeedInputs(op, 1, 1) || op.outputs.empty()) return false;
  uint32_t in = p.In(op, 0);
  if (!p.Ok({in})) return false;
  int32_t axis;
  if (!p.Axis(op.options.axis, p.Rank(in), &axis)) return false;
  std::vector<uint32_t> pieces, outs;
  std::vector<uint32_t> pd = p.Operand(in).dims;
  if (pd[static_cast<size_t>(axis)] != op.outputs.size()) {
    return p.Fail("output count differs from the unpacked dimension");
  }
  pd[static_cast<size_t>(axis)] = 1;
  for (size_t k = 0; k < op.outputs.size(); ++k) {
    uint32_t x = p.Out(op, k);
    if (x == kNoOperand) return false;
    outs.push_back(x);
    pieces.push_back(p.Temp(in, pd));
  }
  p.Emit(ANEURALNETWORKS_SPLIT, {in, p.I32(axis), p.I32(static_cast<int32_t>(outs.size()))}, pieces);
  for (size_t k = 0; k < outs.size(); ++k) {
    std::vector<int32_t> shape = p.OutShape(op, k);
    if (shape.empty()) shape.push_back(1);
    p.Emit(ANEURALNETWORKS_RESHAPE, {pieces[k], p.I32Tensor(shape)}, {outs[k]});
  }
  return true;
}

bool MapPack(Planner& p, const Operator& op) {
  if (op.inputs.empty() || !p.NeedOutputs(op, 1) || !p.NeedOptions(op, opt::kPack)) return false;
  uint32_t out = p.Out(op, 0);
  if (!p.Ok({out})) return false;
  int32_t axis;
  if (!p.Axis(op.options.axis, p.Rank(out), &axis)) return false;
  std::vector<uint32_t> ins = {p.I32(axis)};
  for (size_t k = 0; k < op.inputs.size(); ++k) {
    uint32_t x = p.In(op, k);
    if (x == kNoOperand) return false;
    ins.push_back(x);
  }
  p.Emit(ANEURALNETWORKS_PACK, ins, {out});
  return true;
}

bool MapTile(Planner& p, const Operator& op) {
  if (!p.NeedInputs(op, 2, 2) || !p.NeedOutputs(op, 1)) return false;
  uint32_t in = p.In(op, 0), out = p.Out(op, 0);
  if (!p.Ok({in, out})) return false;
  std::vector<int32_t> mult;
  if (!p.ConstInts(p.InIdx(op, 1), &mult)) return false;
  p.Emit(ANEURALNETWORKS_TILE, {in, p.I32Tensor(mult)}, {out});
  return true;
}

bool MapSpaceToBatchNd(Planner& p, const Operator& op) {
  if (!p.NeedInputs(op, 3, 3) || !p.NeedOutputs(op, 1)) return false;
  uint32_t in = p.In(op, 0), out = p.Out(op, 0);
  if (!p.Ok({in, out})) return false;
  std::vector<int32_t> block, pads;
  if (!p.ConstInts(p.InIdx(op, 1), &block) || !p.ConstInts(p.InIdx(op, 2), &pads)) return false;
  if (pads.size() != 2 * block.size()) return p.Fail("paddings must have shape [spatial dims, 2]");
  p.Emit(ANEURALNETWORKS_SPACE_TO_BATCH_ND,
         {in, p.I32Tensor(block),
          p.OwnedConst<int32_t>(ANEURALNETWORKS_TENSOR_INT32, {static_cast<uint32_t>(block.size()), 2}, pads)},
         {out});
  return true;
}

bool MapBatchToSpaceNd(Planner& p, const Operator& op) {
  if (!p.NeedInputs(op, 3, 3) || !p.NeedOutputs(op, 1)) return false;
  uint32_t in = p.In(op, 0), out = p.Out(op, 0);
  if (!p.Ok({in, out})) return false;
  std::vector<int32_t> block, crops;
  if (!p.ConstInts(p.InIdx(op, 1), &block) || !p.ConstInts(p.InIdx(op, 2), &crops)) return false;
  for (int32_t c : crops) {
    if (c != 0) return p.Fail("non-zero crops have no NNAPI equivalent");
  }
  p.Emit(ANEURALNETWORKS_BATCH_TO_SPACE_ND, {in, p.I32Tensor(block)}, {out});
  return true;
}

bool MapBlockOp(Planner& p, const Operator& op, int32_t nn) {
  if (!p.NeedInputs(op, 1, 1) || !p.NeedOutputs(op, 1)) return false;
  if (op.options.block_size < 1) return p.Fail("invalid block size " + std::to_string(op.options.block_size));
  uint32_t in = p.In(op, 0), out = p.Out(op, 0);
  if (!p.Ok({in, out})) return false;
  p.Emit(nn, {in, p.I32(op.options.block_size)}, {out});
  return true;
}

bool MapPadOp(Planner& p, const Operator& op, PadKind kind) {
  if (!p.NeedInputs(op, 2, kind == PadKind::kValue ? 3 : 2) || !p.NeedOutputs(op, 1)) return false;
  uint32_t in = p.In(op, 0), out = p.Out(op, 0);
  if (!p.Ok({in, out})) return false;
  std::vector<int32_t> pads;
  if (!p.ConstInts(p.InIdx(op, 1), &pads)) return false;
  if (pads.size() != 2 * p.Rank(in)) return p.Fail("paddings must have shape [rank, 2]");
  uint32_t pad_operand =
      p.OwnedConst<int32_t>(ANEURALNETWORKS_TENSOR_INT32, {static_cast<uint32_t>(p.Rank(in)), 2}, pads);
  if (kind == PadKind::kMirror) {
    if (op.options.mirror_pad_mode > 1) return p.Fail("unknown MIRROR_PAD mode");
    p.Emit(ANEURALNETWORKS_MIRROR_PAD, {in, pad_operand, p.I32(op.options.mirror_pad_mode)}, {out});
  } else if (kind == PadKind::kValue && p.InIdx(op, 2) >= 0) {
    uint32_t value;
    if (p.IsFloat(in)) {
      float v;
      if (!p.ConstFloat(p.InIdx(op, 2), &v)) return false;
      value = p.FloatScalar(v, in);
    } else {
      // Quantized pad values are stored in the tensor's own quantized type.
      const Tensor& vt = p.T(p.InIdx(op, 2));
      if (!p.HasData(p.InIdx(op, 2)) || TensorTypeSize(vt.type) != 1) return p.Fail("pad value must be a constant");
      const uint8_t* d = p.model().BufferData(vt.buffer);
      value = p.I32(vt.type == TensorType::kInt8 ? static_cast<int8_t>(d[0]) : d[0]);
    }
    p.Emit(ANEURALNETWORKS_PAD_V2, {in, pad_operand, value}, {out});
  } else {
    // PAD, and PAD_V2 without a value input, pad with zero.
    p.Emit(ANEURALNETWORKS_PAD, {in, pad_operand}, {out});
  }
  return true;
}

bool MapResizeOp(Planner& p, const Operator& op, bool bilinear) {
  const OperatorOptions& o = op.options;
  if (!p.NeedInputs(op, 2, 2) || !p.NeedOutputs(op, 1) ||
      !p.NeedOptions(op, bilinear ? opt::kResizeBilinear : opt::kResizeNearestNeighbor))
    return false;
  uint32_t in = p.In(op, 0), out = p.Out(op, 0);
  if (!p.Ok({in, out})) return false;
  if (p.Rank(in) != 4 || p.Rank(out) != 4) return p.Fail("input and output must be 4-D");
  if (o.align_corners && o.half_pixel_centers) return p.Fail("align_corners and half_pixel_centers both set");
  // The size comes from the output tensor: NNAPI takes it as scalars, TFLite as a tensor input.
  const std::vector<uint32_t> od = p.Operand(out).dims;
  std::vector<uint32_t> ins = {in, p.I32(static_cast<int32_t>(od[2])), p.I32(static_cast<int32_t>(od[1]))};
  // Optional inputs only when needed, so older drivers see the FL1 signature.
  if (!bilinear || o.align_corners || o.half_pixel_centers) {
    ins.push_back(p.Bool(false));
    if (o.align_corners || o.half_pixel_centers) {
      ins.push_back(p.Bool(o.align_corners));
      ins.push_back(p.Bool(o.half_pixel_centers));
    }
  }
  p.Emit(bilinear ? ANEURALNETWORKS_RESIZE_BILINEAR : ANEURALNETWORKS_RESIZE_NEAREST_NEIGHBOR, ins, {out});
  return true;
}

bool MapFill(Planner& p, const Operator& op) {
  if (!p.NeedInputs(op, 2, 2) || !p.NeedOutputs(op, 1)) return false;
  uint32_t dims = p.In(op, 0), out = p.Out(op, 0);
  if (!p.Ok({dims, out})) return false;
  // NNAPI takes the fill value as a scalar of the output's element type.
  uint32_t value;
  if (p.Operand(out).type == ANEURALNETWORKS_TENSOR_INT32) {
    int32_t v;
    if (!p.ConstInt(p.InIdx(op, 1), &v)) return false;
    value = p.I32(v);
  } else if (p.IsFloat(out)) {
    float v;
    if (!p.ConstFloat(p.InIdx(op, 1), &v)) return false;
    value = p.FloatScalar(v, out);
  } else {
    return p.Fail("FILL is only mapped for float and int32 outputs");
  }
  p.Emit(ANEURALNETWORKS_FILL, {dims, value}, {out});
  return true;
}

}  // namespace detail
}  // namespace nnapi_tflite
