// Mappers for builtins that reduce along axes: MEAN / SUM / REDUCE_*, ARG_MAX / ARG_MIN, TOPK_V2.
#include "tflite_mappers.h"

namespace nnapi_tflite {
namespace detail {

bool MapReduceOp(Planner& p, const Operator& op, int32_t nn) {
  if (!p.NeedInputs(op, 2, 2) || !p.NeedOutputs(op, 1) || !p.NeedOptions(op, opt::kReducer)) return false;
  uint32_t in = p.In(op, 0), out = p.Out(op, 0);
  if (!p.Ok({in, out})) return false;
  std::vector<int32_t> axes;
  if (!p.ConstInts(p.InIdx(op, 1), &axes)) return false;
  for (int32_t& a : axes) {
    if (!p.Axis(a, p.Rank(in), &a)) return false;
  }
  uint32_t axes_op = p.I32Tensor(axes);
  // MEAN predates the REDUCE_* family and takes keep_dims as an INT32 scalar, not a BOOL.
  if (nn == ANEURALNETWORKS_MEAN) {
    p.Emit(ANEURALNETWORKS_MEAN, {in, axes_op, p.I32(op.options.keep_dims ? 1 : 0)}, {out});
  } else {
    p.Emit(nn, {in, axes_op, p.Bool(op.options.keep_dims)}, {out});
  }
  return true;
}

bool MapArgMinMaxOp(Planner& p, const Operator& op, int32_t nn) {
  if (!p.NeedInputs(op, 2, 2) || !p.NeedOutputs(op, 1)) return false;
  if (p.T(op.outputs[0]).type != TensorType::kInt32) return p.Fail("only INT32 output indices exist in NNAPI");
  uint32_t in = p.In(op, 0), out = p.Out(op, 0);
  if (!p.Ok({in, out})) return false;
  int32_t axis;
  if (!p.ConstInt(p.InIdx(op, 1), &axis)) return false;
  p.Emit(nn, {in, p.I32(axis)}, {out});
  return true;
}

bool MapTopKV2(Planner& p, const Operator& op) {
  if (!p.NeedInputs(op, 2, 2) || !p.NeedOutputs(op, 2)) return false;
  uint32_t in = p.In(op, 0), v = p.Out(op, 0), idx = p.Out(op, 1);
  if (!p.Ok({in, v, idx})) return false;
  int32_t k;
  if (!p.ConstInt(p.InIdx(op, 1), &k)) return false;
  p.Emit(ANEURALNETWORKS_TOPK_V2, {in, p.I32(k)}, {v, idx});
  return true;
}

}  // namespace detail
}  // namespace nnapi_tflite
