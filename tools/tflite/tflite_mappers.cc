// The importer's operator catalog: which mapper handles each TFLite builtin (and custom op).
// Adding a mapping means writing the mapper in its family's file and adding one row here.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "tflite_mappers.h"

namespace nnapi_tflite {
namespace detail {

namespace {

// Builtins with no NNAPI counterpart that still get their own reason, since "no mapping" alone
// would not tell the user why (or that the operator can disappear at import).
bool MapControlFlow(Planner& p, const Operator&) {
  return p.Fail("control flow / subgraph calls are not mapped by this importer");
}

bool MapGelu(Planner& p, const Operator&) {
  return p.Fail("no NNAPI equivalent (GELU would need an erf/tanh decomposition)");
}

// DENSIFY of a constant sparse tensor never gets here: the planner folds it before mapping.
// Reaching the mapper means the fold failed (say why) or the input is not a sparse constant.
bool MapDensify(Planner& p, const Operator& op) {
  const std::string* err = op.outputs.empty() ? nullptr : p.DensifyError(op.outputs[0]);
  if (err) return p.Fail(*err);
  return p.Fail("only DENSIFY of a constant sparse tensor is supported (folded at import)");
}

// Sorted by builtin code (checked below) so lookups can binary-search.
constexpr BuiltinMapper kBuiltinMappers[] = {
    {op::kAdd, "ADD", MapArithmetic<ANEURALNETWORKS_ADD, opt::kAdd>},
    {op::kAveragePool2D, "AVERAGE_POOL_2D", MapPool<ANEURALNETWORKS_AVERAGE_POOL_2D>},
    {op::kConcatenation, "CONCATENATION", MapConcatenation},
    {op::kConv2D, "CONV_2D", MapConv2D},
    {op::kDepthwiseConv2D, "DEPTHWISE_CONV_2D", MapDepthwiseConv2D},
    {op::kDepthToSpace, "DEPTH_TO_SPACE", MapBlock<ANEURALNETWORKS_DEPTH_TO_SPACE>},
    // Only reached for DEQUANTIZE of run-time tensors, of float16 1x1 convolution filters
    // (ImportOptions::half_conv_filters), or with folding disabled.
    {op::kDequantize, "DEQUANTIZE", MapDequantize},
    {op::kFloor, "FLOOR", MapUnary<ANEURALNETWORKS_FLOOR>},
    {op::kFullyConnected, "FULLY_CONNECTED", MapFullyConnected},
    {op::kL2Normalization, "L2_NORMALIZATION", MapL2Normalization},
    {op::kL2Pool2D, "L2_POOL_2D", MapPool<ANEURALNETWORKS_L2_POOL_2D>},
    {op::kLocalResponseNormalization, "LOCAL_RESPONSE_NORMALIZATION", MapLocalResponseNormalization},
    {op::kLogistic, "LOGISTIC", MapUnary<ANEURALNETWORKS_LOGISTIC>},
    {op::kMaxPool2D, "MAX_POOL_2D", MapPool<ANEURALNETWORKS_MAX_POOL_2D>},
    {op::kMul, "MUL", MapArithmetic<ANEURALNETWORKS_MUL, opt::kMul>},
    {op::kRelu, "RELU", MapUnary<ANEURALNETWORKS_RELU>},
    {op::kReluN1To1, "RELU_N1_TO_1", MapUnary<ANEURALNETWORKS_RELU1>},
    {op::kRelu6, "RELU6", MapUnary<ANEURALNETWORKS_RELU6>},
    {op::kReshape, "RESHAPE", MapReshape},
    {op::kResizeBilinear, "RESIZE_BILINEAR", MapResizeBilinear},
    {op::kSoftmax, "SOFTMAX", MapSoftmax},
    {op::kSpaceToDepth, "SPACE_TO_DEPTH", MapBlock<ANEURALNETWORKS_SPACE_TO_DEPTH>},
    {op::kTanh, "TANH", MapUnary<ANEURALNETWORKS_TANH>},
    {op::kCall, "CALL", MapControlFlow},
    {op::kPad, "PAD", MapPad},
    {op::kGather, "GATHER", MapGather},
    {op::kBatchToSpaceNd, "BATCH_TO_SPACE_ND", MapBatchToSpaceNd},
    {op::kSpaceToBatchNd, "SPACE_TO_BATCH_ND", MapSpaceToBatchNd},
    {op::kTranspose, "TRANSPOSE", MapTranspose},
    {op::kMean, "MEAN", MapReduce<ANEURALNETWORKS_MEAN>},
    {op::kSub, "SUB", MapArithmetic<ANEURALNETWORKS_SUB, opt::kSub>},
    {op::kDiv, "DIV", MapArithmetic<ANEURALNETWORKS_DIV, opt::kDiv>},
    {op::kSqueeze, "SQUEEZE", MapSqueeze},
    {op::kStridedSlice, "STRIDED_SLICE", MapStridedSlice},
    {op::kExp, "EXP", MapUnary<ANEURALNETWORKS_EXP>},
    {op::kTopKV2, "TOPK_V2", MapTopKV2},
    {op::kSplit, "SPLIT", MapSplit},
    {op::kLogSoftmax, "LOG_SOFTMAX", MapLogSoftmax},
    {op::kCast, "CAST", MapUnary<ANEURALNETWORKS_CAST>},
    {op::kPrelu, "PRELU", MapBinary<ANEURALNETWORKS_PRELU>},
    {op::kMaximum, "MAXIMUM", MapBinary<ANEURALNETWORKS_MAXIMUM>},
    {op::kArgMax, "ARG_MAX", MapArgMinMax<ANEURALNETWORKS_ARGMAX>},
    {op::kMinimum, "MINIMUM", MapBinary<ANEURALNETWORKS_MINIMUM>},
    {op::kLess, "LESS", MapBinary<ANEURALNETWORKS_LESS>},
    {op::kNeg, "NEG", MapUnary<ANEURALNETWORKS_NEG>},
    {op::kPadV2, "PADV2", MapPadV2},
    {op::kGreater, "GREATER", MapBinary<ANEURALNETWORKS_GREATER>},
    {op::kGreaterEqual, "GREATER_EQUAL", MapBinary<ANEURALNETWORKS_GREATER_EQUAL>},
    {op::kLessEqual, "LESS_EQUAL", MapBinary<ANEURALNETWORKS_LESS_EQUAL>},
    {op::kSelect, "SELECT", MapSelect},
    {op::kSlice, "SLICE", MapSlice},
    {op::kSin, "SIN", MapUnary<ANEURALNETWORKS_SIN>},
    {op::kTransposeConv, "TRANSPOSE_CONV", MapTransposeConv},
    {op::kTile, "TILE", MapTile},
    {op::kExpandDims, "EXPAND_DIMS", MapExpandDims},
    {op::kEqual, "EQUAL", MapBinary<ANEURALNETWORKS_EQUAL>},
    {op::kNotEqual, "NOT_EQUAL", MapBinary<ANEURALNETWORKS_NOT_EQUAL>},
    {op::kLog, "LOG", MapUnary<ANEURALNETWORKS_LOG>},
    {op::kSum, "SUM", MapReduce<ANEURALNETWORKS_REDUCE_SUM>},
    {op::kSqrt, "SQRT", MapUnary<ANEURALNETWORKS_SQRT>},
    {op::kRsqrt, "RSQRT", MapUnary<ANEURALNETWORKS_RSQRT>},
    {op::kPow, "POW", MapBinary<ANEURALNETWORKS_POW>},
    {op::kArgMin, "ARG_MIN", MapArgMinMax<ANEURALNETWORKS_ARGMIN>},
    {op::kReduceProd, "REDUCE_PROD", MapReduce<ANEURALNETWORKS_REDUCE_PROD>},
    {op::kReduceMax, "REDUCE_MAX", MapReduce<ANEURALNETWORKS_REDUCE_MAX>},
    {op::kPack, "PACK", MapPack},
    {op::kLogicalOr, "LOGICAL_OR", MapBinary<ANEURALNETWORKS_LOGICAL_OR>},
    {op::kLogicalAnd, "LOGICAL_AND", MapBinary<ANEURALNETWORKS_LOGICAL_AND>},
    {op::kLogicalNot, "LOGICAL_NOT", MapUnary<ANEURALNETWORKS_LOGICAL_NOT>},
    {op::kUnpack, "UNPACK", MapUnpack},
    {op::kReduceMin, "REDUCE_MIN", MapReduce<ANEURALNETWORKS_REDUCE_MIN>},
    {op::kReduceAny, "REDUCE_ANY", MapReduce<ANEURALNETWORKS_REDUCE_ANY>},
    {op::kSquare, "SQUARE", MapSquare},
    {op::kFill, "FILL", MapFill},
    {op::kResizeNearestNeighbor, "RESIZE_NEAREST_NEIGHBOR", MapResizeNearestNeighbor},
    {op::kLeakyRelu, "LEAKY_RELU", MapLeakyRelu},
    {op::kSquaredDifference, "SQUARED_DIFFERENCE", MapSquaredDifference},
    {op::kMirrorPad, "MIRROR_PAD", MapMirrorPad},
    {op::kAbs, "ABS", MapUnary<ANEURALNETWORKS_ABS>},
    {op::kSplitV, "SPLIT_V", MapSplitV},
    {op::kRank, "RANK", MapUnary<ANEURALNETWORKS_RANK>},
    {op::kElu, "ELU", MapElu},
    {op::kQuantize, "QUANTIZE", MapUnary<ANEURALNETWORKS_QUANTIZE>},
    {op::kHardSwish, "HARD_SWISH", MapUnary<ANEURALNETWORKS_HARD_SWISH>},
    {op::kIf, "IF", MapControlFlow},
    {op::kWhile, "WHILE", MapControlFlow},
    {op::kSelectV2, "SELECT_V2", MapSelect},
    {op::kDensify, "DENSIFY", MapDensify},
    {op::kBatchMatMul, "BATCH_MATMUL", MapBatchMatMul},
    {op::kCallOnce, "CALL_ONCE", MapControlFlow},
    {op::kReduceAll, "REDUCE_ALL", MapReduce<ANEURALNETWORKS_REDUCE_ALL>},
    {op::kGelu, "GELU", MapGelu},
};

constexpr bool SortedWithoutDuplicates() {
  for (size_t i = 1; i < sizeof(kBuiltinMappers) / sizeof(kBuiltinMappers[0]); ++i) {
    if (kBuiltinMappers[i - 1].builtin >= kBuiltinMappers[i].builtin) return false;
  }
  return true;
}
static_assert(SortedWithoutDuplicates(), "kBuiltinMappers must be sorted by builtin code, each code once");

// A row whose code and name disagree is a mapper filed under the wrong builtin. The reader's
// name list is not constexpr, so this runs once, at the first lookup; every import goes through
// here, so any test that imports a model trips over a bad row.
void CheckNames() {
  for (const BuiltinMapper& e : kBuiltinMappers) {
    const char* reader_name = BuiltinOperatorName(e.builtin);
    if (reader_name == nullptr || std::strcmp(reader_name, e.name) != 0) {
      std::fprintf(stderr, "tflite importer: mapper table row %s has builtin code %d, which is %s\n", e.name,
                   e.builtin, reader_name ? reader_name : "unknown");
      std::abort();
    }
  }
}

constexpr CustomMapper kCustomMappers[] = {
    {"Convolution2DTransposeBias", MapConvolution2DTransposeBias},
};

}  // namespace

const BuiltinMapper* FindBuiltinMapper(int32_t builtin) {
  static const bool checked = (CheckNames(), true);
  (void)checked;
  const BuiltinMapper* end = std::end(kBuiltinMappers);
  const BuiltinMapper* it = std::lower_bound(std::begin(kBuiltinMappers), end, builtin,
                                             [](const BuiltinMapper& e, int32_t code) { return e.builtin < code; });
  return it != end && it->builtin == builtin ? it : nullptr;
}

const CustomMapper* FindCustomMapper(const std::string& custom_code) {
  for (const CustomMapper& e : kCustomMappers) {
    if (custom_code == e.custom_code) return &e;
  }
  return nullptr;
}

}  // namespace detail
}  // namespace nnapi_tflite
