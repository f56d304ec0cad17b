// TFLite graph -> NnGraph planning: walks the operators, creates operands for tensors and
// constants, folds what can be computed at import, and hands each operator to its mapper
// (tflite_mappers*.cc). No NNAPI model is built here; see nnapi_build.cc for that part.

#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksDiagnostics.h>
#include <dlfcn.h>

#include <cstring>
#include <limits>
#include <map>

#include "tflite_importer.h"
#include "tflite_mappers.h"
#include "tflite_planner.h"

namespace nnapi_tflite {
namespace detail {

namespace {

float HalfToFloat(uint16_t h) { return HalfBitsToFloat(h); }

uint16_t FloatToHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000u;
  int32_t exp = static_cast<int32_t>((x >> 23) & 0xff) - 127 + 15;
  uint32_t mant = x & 0x7fffffu;
  if (((x >> 23) & 0xff) == 0xff) return static_cast<uint16_t>(sign | 0x7c00u | (mant ? 0x200u : 0));
  if (exp >= 31) return static_cast<uint16_t>(sign | 0x7c00u);
  if (exp <= 0) {
    if (exp < -10) return static_cast<uint16_t>(sign);
    mant |= 0x800000u;
    uint32_t shift = static_cast<uint32_t>(14 - exp);
    uint32_t half = mant >> shift;
    if ((mant >> (shift - 1)) & 1u) half++;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = sign | (static_cast<uint32_t>(exp) << 10) | (mant >> 13);
  if (mant & 0x1000u) half++;  // round half up
  return static_cast<uint16_t>(half);
}

}  // namespace

bool Planner::Run() {
  const size_t nt = sg_.tensors.size();
  tensor_operand_.assign(nt, -1);
  folded_.assign(nt, -1);
  is_sg_input_.assign(nt, false);
  is_sg_output_.assign(nt, false);
  produced_.assign(nt, false);
  for (int32_t t : sg_.inputs) is_sg_input_[static_cast<size_t>(t)] = true;
  for (int32_t t : sg_.outputs) is_sg_output_[static_cast<size_t>(t)] = true;
  conv_filter_only_.assign(nt, false);
  {
    std::vector<uint8_t> other(nt, 0);
    for (const Operator& op : sg_.operators) {
      const bool conv = op.opcode_index < m_.operator_codes.size() &&
                        m_.operator_codes[op.opcode_index].builtin_code == op::kConv2D;
      for (size_t k = 0; k < op.inputs.size(); ++k) {
        const int32_t t = op.inputs[k];
        if (t < 0 || static_cast<size_t>(t) >= nt) continue;
        if (conv && k == 1)
          conv_filter_only_[static_cast<size_t>(t)] = true;
        else
          other[static_cast<size_t>(t)] = 1;
      }
    }
    for (size_t t = 0; t < nt; ++t)
      if (other[t]) conv_filter_only_[t] = false;
  }

  // Constant DEQUANTIZE results are computed here once so that every consumer sees a plain
  // float32 constant and the DEQUANTIZE disappears from the NNAPI graph (except float16 1x1
  // convolution filters, ImportOptions::half_conv_filters).
  std::vector<bool> folded_op(sg_.operators.size(), false);
  std::vector<std::string> fold_detail(sg_.operators.size());
  for (size_t i = 0; i < sg_.operators.size(); ++i) {
    if (TryFoldDensify(sg_.operators[i], &fold_detail[i]) ||
        (opt_.fold_dequantize && TryFoldDequantize(sg_.operators[i], &fold_detail[i])))
      folded_op[i] = true;
  }

  bool all_ok = true;
  for (size_t i = 0; i < sg_.operators.size(); ++i) {
    const Operator& op = sg_.operators[i];
    OpReport rep;
    rep.index = static_cast<int32_t>(i);
    rep.tflite_name = m_.OpName(op);
    if (folded_op[i]) {
      rep.status = OpReport::Status::kFolded;
      rep.detail = fold_detail[i];
      r_->folded++;
      r_->ops.push_back(std::move(rep));
      continue;
    }
    cur_ = &rep;
    cur_op_ = static_cast<int32_t>(i);
    err_.clear();
    const size_t saved_operands = g_->operands.size();
    const size_t saved_ops = g_->operations.size();
    const size_t saved_inputs = g_->inputs.size();
    bool ok = MapOperator(op);
    if (ok) {
      for (int32_t t : op.outputs) produced_[static_cast<size_t>(t)] = true;
    } else {
      // Undo whatever the failed mapping had started so the graph stays consistent.
      g_->operands.resize(saved_operands);
      g_->operations.resize(saved_ops);
      g_->inputs.resize(saved_inputs);
      for (int32_t& e : tensor_operand_) {
        if (e >= 0 && static_cast<size_t>(e) >= saved_operands) e = -1;
      }
      rep.status = OpReport::Status::kUnsupported;
      rep.nnapi_ops.clear();
      rep.detail = err_.empty() ? "not mappable" : err_;
      r_->unsupported++;
      if (r_->first_error.empty()) {
        r_->first_error = "operator " + std::to_string(i) + " (" + rep.tflite_name + "): " + rep.detail;
      }
      all_ok = false;
    }
    r_->ops.push_back(std::move(rep));
    if (!ok && !opt_.allow_partial) return false;
  }
  cur_ = nullptr;
  cur_op_ = -1;
  return FinishIo() && all_ok;
}

// ---- model inputs / outputs ---------------------------------------------------------------

bool Planner::FinishIo() {
  // Inputs keep the subgraph's order; tensors no operator consumed still get an operand so the
  // NNAPI model has the same input list as the TFLite one.
  std::vector<uint32_t> inputs;
  for (int32_t t : sg_.inputs) {
    uint32_t o = TensorOperand(t);
    if (o == kNoOperand) {
      r_->first_error = "subgraph input tensor " + std::to_string(t) + ": " + err_;
      return false;
    }
    if (g_->operands[o].lifetime != NnOperand::Lifetime::kInput) {
      r_->first_error = "subgraph input tensor " + std::to_string(t) + " is a constant";
      return false;
    }
    inputs.push_back(o);
  }
  std::vector<uint32_t> outputs;
  for (int32_t t : sg_.outputs) {
    int32_t o = tensor_operand_[static_cast<size_t>(t)];
    if (o < 0) {
      if (opt_.allow_partial) continue;  // produced by an unsupported operator
      r_->first_error = "subgraph output tensor " + std::to_string(t) + " ('" +
                        sg_.tensors[static_cast<size_t>(t)].name + "') is not produced by any operator";
      return false;
    }
    if (g_->operands[static_cast<size_t>(o)].lifetime != NnOperand::Lifetime::kOutput) {
      r_->first_error = "subgraph output tensor " + std::to_string(t) +
                        " is also a model input or a constant, which NNAPI cannot express";
      return false;
    }
    outputs.push_back(static_cast<uint32_t>(o));
  }
  if (opt_.allow_partial) {
    // Tensors crossing into or out of an unsupported operator become model inputs/outputs.
    std::vector<int> consumers(g_->operands.size(), 0), producers(g_->operands.size(), 0);
    for (const NnOperation& op : g_->operations) {
      for (uint32_t i : op.inputs) consumers[i]++;
      for (uint32_t o : op.outputs) producers[o]++;
    }
    for (size_t i = 0; i < g_->operands.size(); ++i) {
      NnOperand& od = g_->operands[i];
      if (od.lifetime == NnOperand::Lifetime::kTemporary && producers[i] == 0) {
        od.lifetime = NnOperand::Lifetime::kInput;
        inputs.push_back(static_cast<uint32_t>(i));
        r_->boundary_inputs++;
      } else if (od.lifetime == NnOperand::Lifetime::kTemporary && consumers[i] == 0) {
        od.lifetime = NnOperand::Lifetime::kOutput;
        outputs.push_back(static_cast<uint32_t>(i));
        r_->boundary_outputs++;
      }
    }
  }
  g_->inputs = std::move(inputs);
  g_->outputs = std::move(outputs);
  return true;
}

// ---- operands -----------------------------------------------------------------------------

bool Planner::Fail(const std::string& why) {
  if (err_.empty()) err_ = why;
  return false;
}

bool Planner::HasData(int32_t t) const {
  const Tensor& tt = T(t);
  return folded_[static_cast<size_t>(t)] >= 0 ||
         (tt.buffer < m_.buffers.size() && m_.buffers[tt.buffer].size > 0);
}

bool Planner::OperandTypeFor(const Tensor& t, NnOperand* o) {
  const Quantization& q = t.quantization;
  const bool quant = t.has_quantization && !q.scale.empty();
  switch (t.type) {
    case TensorType::kFloat32: o->type = ANEURALNETWORKS_TENSOR_FLOAT32; break;
    case TensorType::kFloat16: o->type = ANEURALNETWORKS_TENSOR_FLOAT16; break;
    case TensorType::kInt32:
      o->type = ANEURALNETWORKS_TENSOR_INT32;
      if (quant && !q.per_channel()) o->scale = q.scale[0];
      break;
    case TensorType::kBool: o->type = ANEURALNETWORKS_TENSOR_BOOL8; break;
    case TensorType::kUInt8:
      if (!quant) return Fail("UINT8 tensor '" + t.name + "' has no quantization parameters");
      if (q.per_channel()) return Fail("per-channel quantized UINT8 tensor '" + t.name + "'");
      o->type = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
      o->scale = q.scale[0];
      o->zero_point = q.zero_point.empty() ? 0 : static_cast<int32_t>(q.zero_point[0]);
      break;
    case TensorType::kInt8:
      if (!quant) return Fail("INT8 tensor '" + t.name + "' has no quantization parameters");
      if (q.per_channel()) {
        o->type = ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL;
        o->channel_scales = q.scale;
        o->channel_dim = static_cast<uint32_t>(q.quantized_dimension);
        for (int64_t zp : q.zero_point) {
          if (zp != 0) return Fail("per-channel INT8 tensor '" + t.name + "' has a non-zero zero point");
        }
      } else {
        o->type = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED;
        o->scale = q.scale[0];
        o->zero_point = q.zero_point.empty() ? 0 : static_cast<int32_t>(q.zero_point[0]);
      }
      break;
    case TensorType::kInt16:
      if (!quant) return Fail("INT16 tensor '" + t.name + "' has no quantization parameters");
      o->type = ANEURALNETWORKS_TENSOR_QUANT16_SYMM;
      o->scale = q.scale[0];
      break;
    case TensorType::kInt64:
      o->type = ANEURALNETWORKS_TENSOR_INT32;  // constants only, narrowed in TensorOperand
      break;
    default:
      return Fail(std::string("tensor '") + t.name + "' has type " + TensorTypeName(t.type) +
                  ", which NNAPI has no operand type for");
  }
  if (t.has_quantization && t.quantization.has_custom_details) {
    return Fail("tensor '" + t.name + "' uses custom quantization");
  }
  if (t.is_sparse) return Fail("tensor '" + t.name + "' is sparse");
  o->dims.clear();
  for (int32_t d : t.shape) o->dims.push_back(static_cast<uint32_t>(d));
  // NNAPI tensors of rank 0 mean "unknown rank"; a TFLite scalar tensor is a 1-element tensor.
  if (o->dims.empty()) o->dims.push_back(1);
  return true;
}

int32_t Planner::Own(std::vector<uint8_t> bytes) {
  g_->owned_const_bytes += bytes.size();
  g_->owned.push_back(std::make_unique<OwnedBytes>(std::move(bytes)));
  return static_cast<int32_t>(g_->owned.size() - 1);
}

uint32_t Planner::TensorOperand(int32_t t) {
  if (t < 0 || static_cast<size_t>(t) >= sg_.tensors.size()) {
    Fail("tensor index " + std::to_string(t) + " out of range");
    return kNoOperand;
  }
  int32_t& cached = tensor_operand_[static_cast<size_t>(t)];
  if (cached >= 0) return static_cast<uint32_t>(cached);
  const Tensor& tt = T(t);
  NnOperand o;
  o.tflite_tensor = t;
  if (folded_[static_cast<size_t>(t)] >= 0) {
    if (!OperandTypeFor(tt, &o)) return kNoOperand;
    o.lifetime = NnOperand::Lifetime::kConstOwned;
    o.owned = folded_[static_cast<size_t>(t)];
    o.length = g_->owned[static_cast<size_t>(o.owned)]->size();
  } else {
    if (!OperandTypeFor(tt, &o)) return kNoOperand;
    if (HasData(t)) {
      const Buffer& b = m_.buffers[tt.buffer];
      if (tt.type == TensorType::kInt64) {
        std::vector<int32_t> v;
        if (!ConstInts(t, &v)) return kNoOperand;
        std::vector<uint8_t> bytes(v.size() * 4);
        if (!v.empty()) std::memcpy(bytes.data(), v.data(), bytes.size());
        o.lifetime = NnOperand::Lifetime::kConstOwned;
        o.length = bytes.size();
        o.owned = Own(std::move(bytes));
      } else {
        o.lifetime = NnOperand::Lifetime::kConstFile;
        o.file_offset = b.offset;
        o.length = b.size;
        g_->file_const_bytes += b.size;
      }
    } else if (tt.type == TensorType::kInt64) {
      Fail("INT64 tensor '" + tt.name + "' is computed at run time; NNAPI has no 64-bit integer tensors");
      return kNoOperand;
    } else if (is_sg_input_[static_cast<size_t>(t)]) {
      if (is_sg_output_[static_cast<size_t>(t)]) {
        Fail("tensor '" + tt.name + "' is both a model input and a model output");
        return kNoOperand;
      }
      o.lifetime = NnOperand::Lifetime::kInput;
    } else if (is_sg_output_[static_cast<size_t>(t)]) {
      o.lifetime = NnOperand::Lifetime::kOutput;
    }
  }
  cached = static_cast<int32_t>(AddOperand(std::move(o)));
  return static_cast<uint32_t>(cached);
}

uint32_t Planner::Temp(uint32_t like, const std::vector<uint32_t>& dims) {
  NnOperand o;
  const NnOperand& l = g_->operands[like];
  o.type = l.type;
  o.scale = l.scale;
  o.zero_point = l.zero_point;
  o.dims = dims;
  return AddOperand(std::move(o));
}

uint32_t Planner::FloatScalar(float v, uint32_t like) {
  if (g_->operands[like].type == ANEURALNETWORKS_TENSOR_FLOAT16) {
    return OwnedConst<uint16_t>(ANEURALNETWORKS_FLOAT16, {}, {FloatToHalf(v)});
  }
  return OwnedConst<float>(ANEURALNETWORKS_FLOAT32, {}, {v});
}

// The bytes of a constant tensor: folded at import, or its buffer in the file (sparse tensors
// only once densified).
bool Planner::ConstBytes(int32_t t, const uint8_t** p, uint64_t* size) const {
  int32_t f = folded_[static_cast<size_t>(t)];
  if (f >= 0) {
    *p = g_->owned[static_cast<size_t>(f)]->data();
    *size = g_->owned[static_cast<size_t>(f)]->size();
    return true;
  }
  const Tensor& tt = T(t);
  if (tt.is_sparse || tt.buffer >= m_.buffers.size() || m_.buffers[tt.buffer].size == 0) return false;
  *p = m_.data + m_.buffers[tt.buffer].offset;
  *size = m_.buffers[tt.buffer].size;
  return true;
}

bool Planner::ConstInts(int32_t t, std::vector<int32_t>* out) {
  if (t < 0) return Fail("missing constant input");
  const Tensor& tt = T(t);
  const uint8_t* p;
  uint64_t bsize;
  if (!ConstBytes(t, &p, &bsize)) return Fail("tensor '" + tt.name + "' must be a constant for NNAPI");
  out->clear();
  if (tt.type == TensorType::kInt32) {
    size_t n = static_cast<size_t>(bsize / 4);
    out->resize(n);
    if (n) std::memcpy(out->data(), p, n * 4);
    return true;
  }
  if (tt.type == TensorType::kInt64) {
    size_t n = static_cast<size_t>(bsize / 8);
    out->reserve(n);
    for (size_t i = 0; i < n; ++i) {
      int64_t v;
      std::memcpy(&v, p + 8 * i, 8);
      if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) {
        return Fail("INT64 constant '" + tt.name + "' holds " + std::to_string(v) + ", outside int32 range");
      }
      out->push_back(static_cast<int32_t>(v));
    }
    return true;
  }
  return Fail("tensor '" + tt.name + "' has type " + TensorTypeName(tt.type) + ", expected an integer constant");
}

bool Planner::ConstInt(int32_t t, int32_t* v) {
  std::vector<int32_t> all;
  if (!ConstInts(t, &all)) return false;
  if (all.size() != 1) return Fail("tensor '" + T(t).name + "' must hold exactly one value");
  *v = all[0];
  return true;
}

bool Planner::ConstFloat(int32_t t, float* v) {
  if (t < 0) return Fail("missing constant input");
  const Tensor& tt = T(t);
  const uint8_t* p;
  uint64_t bsize;
  if (!ConstBytes(t, &p, &bsize)) return Fail("tensor '" + tt.name + "' must be a constant for NNAPI");
  if (tt.type == TensorType::kFloat32 && bsize == 4) {
    std::memcpy(v, p, 4);
    return true;
  }
  if (tt.type == TensorType::kFloat16 && bsize == 2) {
    uint16_t h;
    std::memcpy(&h, p, 2);
    *v = HalfToFloat(h);
    return true;
  }
  return Fail("tensor '" + tt.name + "' must be a single float constant");
}

// ---- folding at import ---------------------------------------------------------------------

bool Planner::TryFoldDequantize(const Operator& op, std::string* why) {
  if (op.opcode_index >= m_.operator_codes.size()) return false;
  if (m_.operator_codes[op.opcode_index].builtin_code != op::kDequantize) return false;
  if (op.inputs.size() != 1 || op.outputs.size() != 1 || op.inputs[0] < 0) return false;
  const int32_t in = op.inputs[0], out = op.outputs[0];
  const Tensor& ti = T(in);
  const Tensor& to = T(out);
  const uint8_t* p;
  uint64_t bsize;
  if (to.type != TensorType::kFloat32 || is_sg_output_[static_cast<size_t>(out)] ||
      is_sg_input_[static_cast<size_t>(out)] || folded_[static_cast<size_t>(out)] >= 0 ||
      !ConstBytes(in, &p, &bsize))
    return false;
  if (ti.shape != to.shape) return false;
  // A float16 1x1 convolution filter stays float16 (ImportOptions::half_conv_filters); the
  // DEQUANTIZE is mapped to a CAST. Not with 1-2 output channels: the CPU driver's direct
  // kernel for those reads float32 weights (and such a filter is tiny).
  if (opt_.half_conv_filters && ti.type == TensorType::kFloat16 && ti.shape.size() == 4 &&
      ti.shape[0] > 2 && ti.shape[1] == 1 && ti.shape[2] == 1 &&
      conv_filter_only_[static_cast<size_t>(out)])
    return false;
  size_t n = 1;
  for (int32_t d : ti.shape) n *= static_cast<size_t>(d);
  // The stored bytes must cover the shape before anything is allocated from it.
  if (bsize != n * TensorTypeSize(ti.type)) return false;
  // Written straight into the constant's own storage: one pass, no zero-fill, no copy.
  if (ti.type != TensorType::kFloat16 && ti.type != TensorType::kInt8 && ti.type != TensorType::kUInt8) {
    *why = "unsupported DEQUANTIZE input type";
    return false;
  }
  if (ti.type != TensorType::kFloat16 && (bsize != n || ti.quantization.scale.empty())) return false;
  uint8_t* block = g_->const_arena.Allocate(n * 4);
  if (block == nullptr) {
    *why = "out of memory for the dequantized constant";
    return false;
  }
  auto owned = std::make_unique<OwnedBytes>(block, n * 4);
  float* vals = reinterpret_cast<float*>(block);
  if (ti.type == TensorType::kFloat16) {
    HalfToFloatArray(p, vals, n);
  } else if (ti.type == TensorType::kInt8 || ti.type == TensorType::kUInt8) {
    const Quantization& q = ti.quantization;
    // Per-channel: element i belongs to channel (i / inner) % channels along quantized_dimension.
    size_t channels = q.scale.size(), inner = 1;
    if (channels > 1) {
      size_t qd = static_cast<size_t>(q.quantized_dimension);
      if (qd >= ti.shape.size() || static_cast<size_t>(ti.shape[qd]) != channels) return false;
      for (size_t d = qd + 1; d < ti.shape.size(); ++d) inner *= static_cast<size_t>(ti.shape[d]);
    }
    for (size_t i = 0; i < n; ++i) {
      size_t c = channels > 1 ? (i / inner) % channels : 0;
      int32_t qv = ti.type == TensorType::kInt8 ? static_cast<int8_t>(p[i]) : p[i];
      int64_t zp = c < q.zero_point.size() ? q.zero_point[c] : 0;
      vals[i] = static_cast<float>((qv - zp)) * q.scale[c];
    }
  } else {
    *why = "unsupported DEQUANTIZE input type";
    return false;
  }
  g_->owned_const_bytes += owned->size();
  g_->owned.push_back(std::move(owned));
  folded_[static_cast<size_t>(out)] = static_cast<int32_t>(g_->owned.size() - 1);
  *why = "constant " + std::string(TensorTypeName(ti.type)) + " tensor dequantized to float32 at import";
  return true;
}

// DENSIFY of a constant sparse tensor: expanded once here, so consumers see a dense constant.
bool Planner::TryFoldDensify(const Operator& op, std::string* why) {
  if (op.opcode_index >= m_.operator_codes.size()) return false;
  if (m_.operator_codes[op.opcode_index].builtin_code != op::kDensify) return false;
  if (op.inputs.size() != 1 || op.outputs.size() != 1 || op.inputs[0] < 0) return false;
  const int32_t in = op.inputs[0], out = op.outputs[0];
  const Tensor& ti = T(in);
  const Tensor& to = T(out);
  if (!ti.is_sparse || ti.type != to.type || ti.shape != to.shape || is_sg_output_[static_cast<size_t>(out)] ||
      is_sg_input_[static_cast<size_t>(out)] || folded_[static_cast<size_t>(out)] >= 0 ||
      ti.buffer >= m_.buffers.size() || m_.buffers[ti.buffer].size == 0)
    return false;
  const Buffer& b = m_.buffers[ti.buffer];
  std::vector<uint8_t> dense;
  std::string err;
  if (!DensifyTensor(ti, m_.data + b.offset, static_cast<size_t>(b.size), &dense, &err)) {
    densify_errors_[out] = err;
    return false;
  }
  folded_[static_cast<size_t>(out)] = Own(std::move(dense));
  *why = "sparse constant expanded to a dense " + std::string(TensorTypeName(ti.type)) + " tensor at import";
  return true;
}

const std::string* Planner::DensifyError(int32_t output) const {
  auto it = densify_errors_.find(output);
  return it == densify_errors_.end() ? nullptr : &it->second;
}

// ---- operator mapping helpers ---------------------------------------------------------------

uint32_t Planner::In(const Operator& op, size_t k) {
  int32_t t = InIdx(op, k);
  if (t < 0) {
    Fail("required input " + std::to_string(k) + " is missing");
    return kNoOperand;
  }
  uint32_t o = TensorOperand(t);
  return o;
}

uint32_t Planner::Out(const Operator& op, size_t k) {
  if (k >= op.outputs.size()) {
    Fail("output " + std::to_string(k) + " is missing");
    return kNoOperand;
  }
  int32_t t = op.outputs[k];
  if (HasData(t)) {
    Fail("output tensor '" + T(t).name + "' has constant data");
    return kNoOperand;
  }
  if (produced_[static_cast<size_t>(t)] || is_sg_input_[static_cast<size_t>(t)]) {
    Fail("output tensor '" + T(t).name + "' is already defined elsewhere");
    return kNoOperand;
  }
  return TensorOperand(t);
}

bool Planner::NeedInputs(const Operator& op, size_t lo, size_t hi) {
  if (op.inputs.size() < lo || op.inputs.size() > hi) {
    return Fail("expects " + (lo == hi ? std::to_string(lo) : std::to_string(lo) + ".." + std::to_string(hi)) +
                " inputs, has " + std::to_string(op.inputs.size()));
  }
  return true;
}

bool Planner::NeedOutputs(const Operator& op, size_t n) {
  if (op.outputs.size() != n) {
    return Fail("expects " + std::to_string(n) + " outputs, has " + std::to_string(op.outputs.size()));
  }
  return true;
}

bool Planner::NeedOptions(const Operator& op, uint8_t type) {
  if (op.options.type != type && op.options.type != opt::kNone) {
    return Fail("builtin options of union type " + std::to_string(op.options.type) +
                " do not belong to this operator");
  }
  return true;
}

void Planner::Emit(int32_t type, std::vector<uint32_t> ins, std::vector<uint32_t> outs) {
  NnOperation op;
  op.type = type;
  op.inputs = std::move(ins);
  op.outputs = std::move(outs);
  op.tflite_op = cur_op_;
  g_->operations.push_back(std::move(op));
  cur_->nnapi_ops.push_back(NnOperationName(type));
}

bool Planner::PlanAct(Activation a, uint32_t out, bool has_fuse_input, Act* act) {
  act->final_out = act->main_out = out;
  int32_t code = -1, op = -1;
  switch (a) {
    case Activation::kNone: return true;
    case Activation::kRelu: code = ANEURALNETWORKS_FUSED_RELU; op = ANEURALNETWORKS_RELU; break;
    case Activation::kReluN1To1: code = ANEURALNETWORKS_FUSED_RELU1; op = ANEURALNETWORKS_RELU1; break;
    case Activation::kRelu6: code = ANEURALNETWORKS_FUSED_RELU6; op = ANEURALNETWORKS_RELU6; break;
    case Activation::kTanh: op = ANEURALNETWORKS_TANH; break;
    case Activation::kSignBit: return Fail("fused activation SIGN_BIT has no NNAPI equivalent");
  }
  if (has_fuse_input && code >= 0) {
    act->fuse = code;
    return true;
  }
  act->separate_op = op;
  act->main_out = Temp(out, g_->operands[out].dims);
  return true;
}

// Zero bias for convolutions whose TFLite bias input is omitted.
uint32_t Planner::ZeroBias(uint32_t input, uint32_t filter, uint32_t channels) {
  // The channel count comes from a shape, which a hostile file can make arbitrarily large.
  if (channels > (1u << 24)) {
    Fail("filter declares " + std::to_string(channels) + " output channels");
    return kNoOperand;
  }
  const NnOperand& in = g_->operands[input];
  const NnOperand& f = g_->operands[filter];
  if (in.type == ANEURALNETWORKS_TENSOR_FLOAT16) {
    return OwnedConst<uint16_t>(ANEURALNETWORKS_TENSOR_FLOAT16, {channels}, std::vector<uint16_t>(channels, 0));
  }
  if (in.type == ANEURALNETWORKS_TENSOR_FLOAT32) {
    return OwnedConst<float>(ANEURALNETWORKS_TENSOR_FLOAT32, {channels}, std::vector<float>(channels, 0.f));
  }
  float scale = f.type == ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL ? 0.f : in.scale * f.scale;
  return OwnedConst<int32_t>(ANEURALNETWORKS_TENSOR_INT32, {channels}, std::vector<int32_t>(channels, 0), scale);
}

uint32_t Planner::BiasOrZero(const Operator& op, size_t k, uint32_t input, uint32_t filter,
                              uint32_t channels) {
  if (InIdx(op, k) < 0) return ZeroBias(input, filter, channels);
  return In(op, k);
}

bool Planner::PositiveStrides(const OperatorOptions& o) {
  if (o.stride_w <= 0 || o.stride_h <= 0) {
    return Fail("invalid strides " + std::to_string(o.stride_w) + "x" + std::to_string(o.stride_h));
  }
  return true;
}

bool Planner::Axis(int32_t axis, size_t rank, int32_t* out) {
  int32_t r = static_cast<int32_t>(rank);
  if (axis < -r || axis >= r) {
    return Fail("axis " + std::to_string(axis) + " out of range for rank " + std::to_string(rank));
  }
  *out = axis < 0 ? axis + r : axis;
  return true;
}

// ---- dispatch ------------------------------------------------------------------------------

// Custom operators are keyed by name, builtins by code (tflite_mappers.cc). What has no mapper
// is reported with the reason; Run() adds the operator index and undoes any partial mapping.
bool Planner::MapOperator(const Operator& op) {
  const OperatorCode& oc = m_.operator_codes[op.opcode_index];
  const int32_t code = oc.builtin_code;
  if (code == op::kCustom) {
    if (const CustomMapper* c = FindCustomMapper(oc.custom_code)) return c->map(*this, op);
    return Fail("custom operator '" + oc.custom_code + "' has no NNAPI mapping");
  }
  if (const BuiltinMapper* b = FindBuiltinMapper(code)) return b->map(*this, op);
  if (!BuiltinOperatorName(code)) return Fail("unknown builtin operator code " + std::to_string(code));
  return Fail("no NNAPI mapping for this operator");
}

}  // namespace detail

bool PlanImport(const Model& model, const ImportOptions& options, NnGraph* graph,
                ImportReport* report) {
  *graph = NnGraph();
  *report = ImportReport();
  if (options.subgraph < 0 || static_cast<size_t>(options.subgraph) >= model.subgraphs.size()) {
    report->first_error = "subgraph " + std::to_string(options.subgraph) + " does not exist";
    return false;
  }
  // The planner indexes tensors, buffers and opcodes directly: only validated models get here.
  std::string err;
  if (!ValidateModel(model, &err)) {
    report->first_error = err;
    return false;
  }
  detail::Planner p(model, options, graph, report);
  return p.Run();
}

// Operation names come from the runtime's own list (ANNLinux_operationName), so reports spell
// operations exactly as the runtime's diagnostics do and no second table is kept here. It is
// looked up at run time, as the diagnostics header advises clients to: it is an extension of this
// runtime only, and nnapi_tflite_core must link without the runtime (fuzz targets, op models).
// Where the runtime is not loaded, every code gets the placeholder; only reports show names.
const char* NnOperationName(int32_t type) {
  using NameFn = decltype(&ANNLinux_operationName);
  static const NameFn runtime_name = reinterpret_cast<NameFn>(dlsym(RTLD_DEFAULT, "ANNLinux_operationName"));
  const char* name = runtime_name ? runtime_name(type) : nullptr;
  return name ? name : "UNKNOWN_OPERATION";
}

const char* NnOperandTypeName(int32_t type) {
  static const char* const kNames[] = {
      "FLOAT32", "INT32", "UINT32", "TENSOR_FLOAT32", "TENSOR_INT32", "TENSOR_QUANT8_ASYMM", "BOOL",
      "TENSOR_QUANT16_SYMM", "TENSOR_FLOAT16", "TENSOR_BOOL8", "FLOAT16",
      "TENSOR_QUANT8_SYMM_PER_CHANNEL", "TENSOR_QUANT16_ASYMM", "TENSOR_QUANT8_SYMM",
      "TENSOR_QUANT8_ASYMM_SIGNED", "MODEL"};
  if (type >= 0 && type < static_cast<int32_t>(sizeof(kNames) / sizeof(kNames[0]))) return kNames[type];
  return "UNKNOWN_TYPE";
}

}  // namespace nnapi_tflite