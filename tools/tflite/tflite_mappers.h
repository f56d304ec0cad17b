// The TFLite -> NNAPI operator mappers and the tables that select them (internal to the importer).
//
// One mapper per TFLite builtin, or one per family whose members differ only in the NNAPI
// operation they emit (those are templates over the NNAPI code, so the table spells out the
// target of each builtin). A mapper either emits the operator's NNAPI operations and returns
// true, or returns false with the reason recorded through Planner::Fail; the planner undoes any
// operands/operations a failed mapping had already added.
//
//   tflite_mappers.cc             builtin and custom tables, builtins known to be unmappable
//   tflite_mappers_elementwise.cc arithmetic, comparisons, activations, softmax, normalization
//   tflite_mappers_conv.cc        convolutions, pooling, fully connected, batch matmul
//   tflite_mappers_shape.cc       reshape/transpose, concat/split/pack, slicing, padding, resize
//   tflite_mappers_reduce.cc      reductions, arg min/max, top-k
#pragma once

#include <cstdint>
#include <string>

#include "tflite_planner.h"

namespace nnapi_tflite {
namespace detail {

using MapperFn = bool (*)(Planner& p, const Operator& op);

struct BuiltinMapper {
  int32_t builtin;   // op::k* (BuiltinOperator of the schema)
  const char* name;  // the schema's name of the builtin, as BuiltinOperatorName() spells it
  MapperFn map;
};
// The entry for a builtin code, or nullptr when the importer has no mapper for it.
const BuiltinMapper* FindBuiltinMapper(int32_t builtin);

struct CustomMapper {
  const char* custom_code;  // OperatorCode.custom_code
  MapperFn map;
};
const CustomMapper* FindCustomMapper(const std::string& custom_code);

// ---- family helpers (the templates below only bind their NNAPI code) ------------------------

// Unary/binary ops with a 1:1 NNAPI counterpart and no parameters.
bool MapSimpleOp(Planner& p, const Operator& op, int32_t nn, size_t inputs);
bool MapDequantize(Planner& p, const Operator& op);
template <int32_t kNn>
bool MapUnary(Planner& p, const Operator& op) { return MapSimpleOp(p, op, kNn, 1); }
template <int32_t kNn>
bool MapBinary(Planner& p, const Operator& op) { return MapSimpleOp(p, op, kNn, 2); }

// ADD/SUB/MUL/DIV: binary with a fused activation; `options` is the builtin options union type.
bool MapArithmeticOp(Planner& p, const Operator& op, int32_t nn, uint8_t options);
template <int32_t kNn, uint8_t kOptions>
bool MapArithmetic(Planner& p, const Operator& op) { return MapArithmeticOp(p, op, kNn, kOptions); }

bool MapPoolOp(Planner& p, const Operator& op, int32_t nn);
template <int32_t kNn>
bool MapPool(Planner& p, const Operator& op) { return MapPoolOp(p, op, kNn); }

// SPACE_TO_DEPTH / DEPTH_TO_SPACE.
bool MapBlockOp(Planner& p, const Operator& op, int32_t nn);
template <int32_t kNn>
bool MapBlock(Planner& p, const Operator& op) { return MapBlockOp(p, op, kNn); }

bool MapResizeOp(Planner& p, const Operator& op, bool bilinear);
inline bool MapResizeBilinear(Planner& p, const Operator& op) { return MapResizeOp(p, op, true); }
inline bool MapResizeNearestNeighbor(Planner& p, const Operator& op) { return MapResizeOp(p, op, false); }

// PAD, PAD_V2 (constant value) and MIRROR_PAD share the paddings conversion.
enum class PadKind { kZero, kValue, kMirror };
bool MapPadOp(Planner& p, const Operator& op, PadKind kind);
inline bool MapPad(Planner& p, const Operator& op) { return MapPadOp(p, op, PadKind::kZero); }
inline bool MapPadV2(Planner& p, const Operator& op) { return MapPadOp(p, op, PadKind::kValue); }
inline bool MapMirrorPad(Planner& p, const Operator& op) { return MapPadOp(p, op, PadKind::kMirror); }

// MEAN and REDUCE_*: constant axes input, keep_dims option.
bool MapReduceOp(Planner& p, const Operator& op, int32_t nn);
template <int32_t kNn>
bool MapReduce(Planner& p, const Operator& op) { return MapReduceOp(p, op, kNn); }

bool MapArgMinMaxOp(Planner& p, const Operator& op, int32_t nn);
template <int32_t kNn>
bool MapArgMinMax(Planner& p, const Operator& op) { return MapArgMinMaxOp(p, op, kNn); }

// ---- one mapper per builtin -----------------------------------------------------------------

// tflite_mappers_elementwise.cc
bool MapSquaredDifference(Planner& p, const Operator& op);
bool MapSquare(Planner& p, const Operator& op);
bool MapL2Normalization(Planner& p, const Operator& op);
bool MapElu(Planner& p, const Operator& op);
bool MapLeakyRelu(Planner& p, const Operator& op);
bool MapSoftmax(Planner& p, const Operator& op);
bool MapLogSoftmax(Planner& p, const Operator& op);
bool MapLocalResponseNormalization(Planner& p, const Operator& op);
bool MapSelect(Planner& p, const Operator& op);  // SELECT and SELECT_V2

// tflite_mappers_conv.cc
bool MapConv2D(Planner& p, const Operator& op);
bool MapDepthwiseConv2D(Planner& p, const Operator& op);
bool MapTransposeConv(Planner& p, const Operator& op);
bool MapFullyConnected(Planner& p, const Operator& op);
bool MapBatchMatMul(Planner& p, const Operator& op);
bool MapConvolution2DTransposeBias(Planner& p, const Operator& op);  // MediaPipe custom op

// tflite_mappers_shape.cc
bool MapConcatenation(Planner& p, const Operator& op);
bool MapReshape(Planner& p, const Operator& op);
bool MapTranspose(Planner& p, const Operator& op);
bool MapSqueeze(Planner& p, const Operator& op);
bool MapExpandDims(Planner& p, const Operator& op);
bool MapStridedSlice(Planner& p, const Operator& op);
bool MapSlice(Planner& p, const Operator& op);
bool MapGather(Planner& p, const Operator& op);
bool MapSplit(Planner& p, const Operator& op);
bool MapSplitV(Planner& p, const Operator& op);
bool MapUnpack(Planner& p, const Operator& op);
bool MapPack(Planner& p, const Operator& op);
bool MapTile(Planner& p, const Operator& op);
bool MapSpaceToBatchNd(Planner& p, const Operator& op);
bool MapBatchToSpaceNd(Planner& p, const Operator& op);
bool MapFill(Planner& p, const Operator& op);

// tflite_mappers_reduce.cc
bool MapTopKV2(Planner& p, const Operator& op);

}  // namespace detail
}  // namespace nnapi_tflite
