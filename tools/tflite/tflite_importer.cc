// TFLite graph -> NnGraph mapping (no NNAPI calls here; see nnapi_build.cc for that part).

#include <android/NeuralNetworks.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>

#include "tflite_importer.h"

namespace nnapi_tflite {

namespace {

constexpr uint32_t kNoOperand = std::numeric_limits<uint32_t>::max();

float HalfToFloat(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ffu;
  uint32_t bits;
  if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else {  // subnormal: renormalise
      int e = -1;
      do {
        ++e;
        mant <<= 1;
      } while ((mant & 0x400u) == 0);
      bits = sign | (static_cast<uint32_t>(127 - 15 - e) << 23) | ((mant & 0x3ffu) << 13);
    }
  } else if (exp == 31) {
    bits = sign | 0x7f800000u | (mant << 13);
  } else {
    bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

class Planner {
 public:
  Planner(const Model& m, const ImportOptions& o, NnGraph* g, ImportReport* r)
      : m_(m), opt_(o), g_(g), r_(r), sg_(m.subgraphs[static_cast<size_t>(o.subgraph)]) {}

  bool Run() {
    const size_t nt = sg_.tensors.size();
    tensor_operand_.assign(nt, -1);
    folded_.assign(nt, -1);
    is_sg_input_.assign(nt, false);
    is_sg_output_.assign(nt, false);
    produced_.assign(nt, false);
    for (int32_t t : sg_.inputs) is_sg_input_[static_cast<size_t>(t)] = true;
    for (int32_t t : sg_.outputs) is_sg_output_[static_cast<size_t>(t)] = true;

    // Constant DEQUANTIZE results are computed here once so that every consumer sees a plain
    // float32 constant and the DEQUANTIZE disappears from the NNAPI graph.
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

 private:
  // ---- model inputs / outputs -------------------------------------------------------------

  bool FinishIo() {
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

  // ---- operands ---------------------------------------------------------------------------

  bool Fail(const std::string& why) {
    if (err_.empty()) err_ = why;
    return false;
  }

  const Tensor& T(int32_t t) const { return sg_.tensors[static_cast<size_t>(t)]; }

  bool HasData(int32_t t) const {
    const Tensor& tt = T(t);
    return folded_[static_cast<size_t>(t)] >= 0 ||
           (tt.buffer < m_.buffers.size() && m_.buffers[tt.buffer].size > 0);
  }

  bool OperandTypeFor(const Tensor& t, NnOperand* o) {
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

  uint32_t AddOperand(NnOperand o) {
    g_->operands.push_back(std::move(o));
    return static_cast<uint32_t>(g_->operands.size() - 1);
  }

  int32_t Own(std::vector<uint8_t> bytes) {
    g_->owned_const_bytes += bytes.size();
    g_->owned.push_back(std::make_unique<std::vector<uint8_t>>(std::move(bytes)));
    return static_cast<int32_t>(g_->owned.size() - 1);
  }

  // The operand standing for TFLite tensor `t` (created on first use).
  uint32_t TensorOperand(int32_t t) {
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

  // A new temporary operand with the type and quantization of `like` and the given dims.
  uint32_t Temp(uint32_t like, const std::vector<uint32_t>& dims) {
    NnOperand o;
    const NnOperand& l = g_->operands[like];
    o.type = l.type;
    o.scale = l.scale;
    o.zero_point = l.zero_point;
    o.dims = dims;
    return AddOperand(std::move(o));
  }

  template <typename V>
  uint32_t OwnedConst(int32_t type, const std::vector<uint32_t>& dims, const std::vector<V>& values,
                      float scale = 0.f) {
    NnOperand o;
    o.type = type;
    o.dims = dims;
    o.scale = scale;
    std::vector<uint8_t> bytes(values.size() * sizeof(V));
    if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
    o.lifetime = NnOperand::Lifetime::kConstOwned;
    o.length = bytes.size();
    o.owned = Own(std::move(bytes));
    return AddOperand(std::move(o));
  }
  uint32_t I32(int32_t v) { return OwnedConst<int32_t>(ANEURALNETWORKS_INT32, {}, {v}); }
  uint32_t Bool(bool v) { return OwnedConst<uint8_t>(ANEURALNETWORKS_BOOL, {}, {uint8_t(v ? 1 : 0)}); }
  // Float scalar matching the precision of `like` (FLOAT16 for half-precision tensors).
  uint32_t FloatScalar(float v, uint32_t like) {
    if (g_->operands[like].type == ANEURALNETWORKS_TENSOR_FLOAT16) {
      return OwnedConst<uint16_t>(ANEURALNETWORKS_FLOAT16, {}, {FloatToHalf(v)});
    }
    return OwnedConst<float>(ANEURALNETWORKS_FLOAT32, {}, {v});
  }
  uint32_t I32Tensor(const std::vector<int32_t>& v) {
    return OwnedConst<int32_t>(ANEURALNETWORKS_TENSOR_INT32, {static_cast<uint32_t>(v.size())}, v);
  }

  static uint16_t FloatToHalf(float f) {
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

  // The bytes of a constant tensor: folded at import, or its buffer in the file (sparse tensors
  // only once densified).
  bool ConstBytes(int32_t t, const uint8_t** p, uint64_t* size) const {
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

  // Reads an INT32/INT64 constant tensor (INT64 values must fit in int32).
  bool ConstInts(int32_t t, std::vector<int32_t>* out) {
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
  bool ConstInt(int32_t t, int32_t* v) {
    std::vector<int32_t> all;
    if (!ConstInts(t, &all)) return false;
    if (all.size() != 1) return Fail("tensor '" + T(t).name + "' must hold exactly one value");
    *v = all[0];
    return true;
  }
  bool ConstFloat(int32_t t, float* v) {
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

  // ---- DEQUANTIZE folding -----------------------------------------------------------------

  bool TryFoldDequantize(const Operator& op, std::string* why) {
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
    size_t n = 1;
    for (int32_t d : ti.shape) n *= static_cast<size_t>(d);
    // The stored bytes must cover the shape before anything is allocated from it.
    if (bsize != n * TensorTypeSize(ti.type)) return false;
    std::vector<float> vals(n);
    if (ti.type == TensorType::kFloat16) {
      if (bsize != n * 2) return false;
      for (size_t i = 0; i < n; ++i) {
        uint16_t h;
        std::memcpy(&h, p + 2 * i, 2);
        vals[i] = HalfToFloat(h);
      }
    } else if (ti.type == TensorType::kInt8 || ti.type == TensorType::kUInt8) {
      const Quantization& q = ti.quantization;
      if (bsize != n || q.scale.empty()) return false;
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
    std::vector<uint8_t> bytes(n * 4);
    if (n) std::memcpy(bytes.data(), vals.data(), bytes.size());
    folded_[static_cast<size_t>(out)] = Own(std::move(bytes));
    *why = "constant " + std::string(TensorTypeName(ti.type)) + " tensor dequantized to float32 at import";
    return true;
  }

  // DENSIFY of a constant sparse tensor: expanded once here, so consumers see a dense constant.
  bool TryFoldDensify(const Operator& op, std::string* why) {
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

  // ---- operator mapping helpers -----------------------------------------------------------

  int32_t InIdx(const Operator& op, size_t k) const {
    return k < op.inputs.size() ? op.inputs[k] : -1;
  }
  uint32_t In(const Operator& op, size_t k) {
    int32_t t = InIdx(op, k);
    if (t < 0) {
      Fail("required input " + std::to_string(k) + " is missing");
      return kNoOperand;
    }
    uint32_t o = TensorOperand(t);
    return o;
  }
  uint32_t Out(const Operator& op, size_t k) {
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
  bool NeedInputs(const Operator& op, size_t lo, size_t hi) {
    if (op.inputs.size() < lo || op.inputs.size() > hi) {
      return Fail("expects " + (lo == hi ? std::to_string(lo) : std::to_string(lo) + ".." + std::to_string(hi)) +
                  " inputs, has " + std::to_string(op.inputs.size()));
    }
    return true;
  }
  bool NeedOutputs(const Operator& op, size_t n) {
    if (op.outputs.size() != n) {
      return Fail("expects " + std::to_string(n) + " outputs, has " + std::to_string(op.outputs.size()));
    }
    return true;
  }
  bool NeedOptions(const Operator& op, uint8_t type) {
    if (op.options.type != type && op.options.type != opt::kNone) {
      return Fail("builtin options of union type " + std::to_string(op.options.type) +
                  " do not belong to this operator");
    }
    return true;
  }
  static bool Ok(std::initializer_list<uint32_t> v) {
    for (uint32_t x : v) {
      if (x == kNoOperand) return false;
    }
    return true;
  }
  size_t Rank(uint32_t o) const { return g_->operands[o].dims.size(); }
  bool IsFloat(uint32_t o) const {
    int32_t t = g_->operands[o].type;
    return t == ANEURALNETWORKS_TENSOR_FLOAT32 || t == ANEURALNETWORKS_TENSOR_FLOAT16;
  }

  void Emit(int32_t type, std::vector<uint32_t> ins, std::vector<uint32_t> outs) {
    NnOperation op;
    op.type = type;
    op.inputs = std::move(ins);
    op.outputs = std::move(outs);
    op.tflite_op = cur_op_;
    g_->operations.push_back(std::move(op));
    cur_->nnapi_ops.push_back(NnOperationName(type));
  }

  // Fused activation handling: NNAPI ops with a FuseCode input take RELU/RELU1/RELU6 directly;
  // TANH, and any activation on ops without a FuseCode input, becomes a separate operation.
  struct Act {
    int32_t fuse = ANEURALNETWORKS_FUSED_NONE;
    int32_t separate_op = -1;
    uint32_t main_out = kNoOperand;  // what the main operation writes
    uint32_t final_out = kNoOperand;
  };
  bool PlanAct(Activation a, uint32_t out, bool has_fuse_input, Act* act) {
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
  void FinishAct(const Act& act) {
    if (act.separate_op >= 0) Emit(act.separate_op, {act.main_out}, {act.final_out});
  }

  // Zero bias for convolutions whose TFLite bias input is omitted.
  uint32_t ZeroBias(uint32_t input, uint32_t filter, uint32_t channels) {
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
  uint32_t BiasOrZero(const Operator& op, size_t k, uint32_t input, uint32_t filter, uint32_t channels) {
    if (InIdx(op, k) < 0) return ZeroBias(input, filter, channels);
    return In(op, k);
  }
  static int32_t PaddingCode(Padding p) {
    return p == Padding::kSame ? ANEURALNETWORKS_PADDING_SAME : ANEURALNETWORKS_PADDING_VALID;
  }
  bool PositiveStrides(const OperatorOptions& o) {
    if (o.stride_w <= 0 || o.stride_h <= 0) {
      return Fail("invalid strides " + std::to_string(o.stride_w) + "x" + std::to_string(o.stride_h));
    }
    return true;
  }
  // Normalises a possibly negative axis against `rank`.
  bool Axis(int32_t axis, size_t rank, int32_t* out) {
    int32_t r = static_cast<int32_t>(rank);
    if (axis < -r || axis >= r) {
      return Fail("axis " + std::to_string(axis) + " out of range for rank " + std::to_string(rank));
    }
    *out = axis < 0 ? axis + r : axis;
    return true;
  }
  std::vector<int32_t> OutShape(const Operator& op, size_t k) const {
    return T(op.outputs[k]).shape;
  }

  // ---- the mapping ------------------------------------------------------------------------

  bool MapOperator(const Operator& op) {
    const OperatorCode& oc = m_.operator_codes[op.opcode_index];
    const int32_t code = oc.builtin_code;
    const OperatorOptions& o = op.options;
    if (code == op::kCustom) return MapCustom(op, oc.custom_code);

    switch (code) {
      case op::kAdd: case op::kSub: case op::kMul: case op::kDiv: {
        static const int32_t kNn[] = {ANEURALNETWORKS_ADD, ANEURALNETWORKS_SUB, ANEURALNETWORKS_MUL, ANEURALNETWORKS_DIV};
        int32_t nn = kNn[code == op::kAdd ? 0 : code == op::kSub ? 1 : code == op::kMul ? 2 : 3];
        uint8_t ot = code == op::kAdd ? opt::kAdd : code == op::kSub ? opt::kSub : code == op::kMul ? opt::kMul : opt::kDiv;
        if (!NeedInputs(op, 2, 2) || !NeedOutputs(op, 1) || !NeedOptions(op, ot)) return false;
        uint32_t a = In(op, 0), b = In(op, 1), out = Out(op, 0);
        if (!Ok({a, b, out})) return false;
        Act act;
        if (!PlanAct(o.activation, out, true, &act)) return false;
        Emit(nn, {a, b, I32(act.fuse)}, {act.main_out});
        FinishAct(act);
        return true;
      }
      case op::kSquaredDifference: {
        if (!NeedInputs(op, 2, 2) || !NeedOutputs(op, 1)) return false;
        uint32_t a = In(op, 0), b = In(op, 1), out = Out(op, 0);
        if (!Ok({a, b, out})) return false;
        uint32_t d = Temp(out, g_->operands[out].dims);
        Emit(ANEURALNETWORKS_SUB, {a, b, I32(0)}, {d});
        Emit(ANEURALNETWORKS_MUL, {d, d, I32(0)}, {out});
        return true;
      }
      case op::kSquare: {
        if (!NeedInputs(op, 1, 1) || !NeedOutputs(op, 1)) return false;
        uint32_t a = In(op, 0), out = Out(op, 0);
        if (!Ok({a, out})) return false;
        Emit(ANEURALNETWORKS_MUL, {a, a, I32(0)}, {out});
        return true;
      }
      case op::kMaximum: return Simple(op, ANEURALNETWORKS_MAXIMUM, 2);
      case op::kMinimum: return Simple(op, ANEURALNETWORKS_MINIMUM, 2);
      case op::kPow: return Simple(op, ANEURALNETWORKS_POW, 2);
      case op::kPrelu: return Simple(op, ANEURALNETWORKS_PRELU, 2);
      case op::kEqual: return Simple(op, ANEURALNETWORKS_EQUAL, 2);
      case op::kNotEqual: return Simple(op, ANEURALNETWORKS_NOT_EQUAL, 2);
      case op::kLess: return Simple(op, ANEURALNETWORKS_LESS, 2);
      case op::kLessEqual: return Simple(op, ANEURALNETWORKS_LESS_EQUAL, 2);
      case op::kGreater: return Simple(op, ANEURALNETWORKS_GREATER, 2);
      case op::kGreaterEqual: return Simple(op, ANEURALNETWORKS_GREATER_EQUAL, 2);
      case op::kLogicalAnd: return Simple(op, ANEURALNETWORKS_LOGICAL_AND, 2);
      case op::kLogicalOr: return Simple(op, ANEURALNETWORKS_LOGICAL_OR, 2);
      case op::kLogistic: return Simple(op, ANEURALNETWORKS_LOGISTIC, 1);
      case op::kTanh: return Simple(op, ANEURALNETWORKS_TANH, 1);
      case op::kRelu: return Simple(op, ANEURALNETWORKS_RELU, 1);
      case op::kRelu6: return Simple(op, ANEURALNETWORKS_RELU6, 1);
      case op::kReluN1To1: return Simple(op, ANEURALNETWORKS_RELU1, 1);
      case op::kHardSwish: return Simple(op, ANEURALNETWORKS_HARD_SWISH, 1);
      case op::kExp: return Simple(op, ANEURALNETWORKS_EXP, 1);
      case op::kLog: return Simple(op, ANEURALNETWORKS_LOG, 1);
      case op::kAbs: return Simple(op, ANEURALNETWORKS_ABS, 1);
      case op::kNeg: return Simple(op, ANEURALNETWORKS_NEG, 1);
      case op::kSqrt: return Simple(op, ANEURALNETWORKS_SQRT, 1);
      case op::kRsqrt: return Simple(op, ANEURALNETWORKS_RSQRT, 1);
      case op::kSin: return Simple(op, ANEURALNETWORKS_SIN, 1);
      case op::kFloor: return Simple(op, ANEURALNETWORKS_FLOOR, 1);
      case op::kLogicalNot: return Simple(op, ANEURALNETWORKS_LOGICAL_NOT, 1);
      case op::kDequantize: return Simple(op, ANEURALNETWORKS_DEQUANTIZE, 1);
      case op::kQuantize: return Simple(op, ANEURALNETWORKS_QUANTIZE, 1);
      case op::kCast: return Simple(op, ANEURALNETWORKS_CAST, 1);
      case op::kRank: return Simple(op, ANEURALNETWORKS_RANK, 1);
      case op::kL2Normalization: {
        if (!NeedOptions(op, opt::kL2Norm)) return false;
        if (o.activation != Activation::kNone) return Fail("fused activation on L2_NORMALIZATION is not supported");
        return Simple(op, ANEURALNETWORKS_L2_NORMALIZATION, 1);
      }
      case op::kElu: {
        if (!NeedInputs(op, 1, 1) || !NeedOutputs(op, 1)) return false;
        uint32_t a = In(op, 0), out = Out(op, 0);
        if (!Ok({a, out})) return false;
        Emit(ANEURALNETWORKS_ELU, {a, FloatScalar(1.f, a)}, {out});
        return true;
      }
      case op::kLeakyRelu: {
        if (!NeedInputs(op, 1, 1) || !NeedOutputs(op, 1) || !NeedOptions(op, opt::kLeakyRelu)) return false;
        uint32_t a = In(op, 0), out = Out(op, 0);
        if (!Ok({a, out})) return false;
        if (g_->operands[a].type != ANEURALNETWORKS_TENSOR_FLOAT32) {
          return Fail("LEAKY_RELU is only mapped for float32 (as PRELU with a constant slope)");
        }
        uint32_t alpha = OwnedConst<float>(ANEURALNETWORKS_TENSOR_FLOAT32, {1}, {o.alpha});
        Emit(ANEURALNETWORKS_PRELU, {a, alpha}, {out});
        return true;
      }
      case op::kAveragePool2D: case op::kMaxPool2D: case op::kL2Pool2D: {
        int32_t nn = code == op::kAveragePool2D ? ANEURALNETWORKS_AVERAGE_POOL_2D
                     : code == op::kMaxPool2D   ? ANEURALNETWORKS_MAX_POOL_2D
                                                : ANEURALNETWORKS_L2_POOL_2D;
        if (!NeedInputs(op, 1, 1) || !NeedOutputs(op, 1) || !NeedOptions(op, opt::kPool2D) ||
            !PositiveStrides(o))
          return false;
        if (o.filter_w <= 0 || o.filter_h <= 0) return Fail("invalid filter size");
        uint32_t a = In(op, 0), out = Out(op, 0);
        if (!Ok({a, out})) return false;
        if (Rank(a) != 4) return Fail("input must be 4-D");
        Act act;
        if (!PlanAct(o.activation, out, true, &act)) return false;
        Emit(nn, {a, I32(PaddingCode(o.padding)), I32(o.stride_w), I32(o.stride_h), I32(o.filter_w),
                  I32(o.filter_h), I32(act.fuse)},
             {act.main_out});
        FinishAct(act);
        return true;
      }
      case op::kConv2D: {
        if (!NeedInputs(op, 2, 3) || !NeedOutputs(op, 1) || !NeedOptions(op, opt::kConv2D) ||
            !PositiveStrides(o))
          return false;
        uint32_t in = In(op, 0), filter = In(op, 1), out = Out(op, 0);
        if (!Ok({in, filter, out})) return false;
        if (Rank(in) != 4 || Rank(filter) != 4) return Fail("input and filter must be 4-D");
        uint32_t bias = BiasOrZero(op, 2, in, filter, g_->operands[filter].dims[0]);
        if (!Ok({bias})) return false;
        Act act;
        if (!PlanAct(o.activation, out, true, &act)) return false;
        std::vector<uint32_t> ins = {in, filter, bias, I32(PaddingCode(o.padding)), I32(o.stride_w),
                                     I32(o.stride_h), I32(act.fuse)};
        if (o.dilation_w != 1 || o.dilation_h != 1) {
          if (o.dilation_w <= 0 || o.dilation_h <= 0) return Fail("invalid dilation");
          ins.push_back(Bool(false));
          ins.push_back(I32(o.dilation_w));
          ins.push_back(I32(o.dilation_h));
        }
        Emit(ANEURALNETWORKS_CONV_2D, ins, {act.main_out});
        FinishAct(act);
        return true;
      }
      case op::kDepthwiseConv2D: {
        if (!NeedInputs(op, 2, 3) || !NeedOutputs(op, 1) || !NeedOptions(op, opt::kDepthwiseConv2D) ||
            !PositiveStrides(o))
          return false;
        uint32_t in = In(op, 0), filter = In(op, 1), out = Out(op, 0);
        if (!Ok({in, filter, out})) return false;
        if (Rank(in) != 4 || Rank(filter) != 4) return Fail("input and filter must be 4-D");
        uint32_t in_c = g_->operands[in].dims[3], out_c = g_->operands[filter].dims[3];
        // The options' depth_multiplier is unreliable in newer models; derive it from the shapes.
        if (in_c == 0 || out_c % in_c != 0) {
          return Fail("filter channels " + std::to_string(out_c) + " not a multiple of input channels " +
                      std::to_string(in_c));
        }
        uint32_t bias = BiasOrZero(op, 2, in, filter, out_c);
        if (!Ok({bias})) return false;
        Act act;
        if (!PlanAct(o.activation, out, true, &act)) return false;
        std::vector<uint32_t> ins = {in, filter, bias, I32(PaddingCode(o.padding)), I32(o.stride_w),
                                     I32(o.stride_h), I32(static_cast<int32_t>(out_c / in_c)), I32(act.fuse)};
        if (o.dilation_w != 1 || o.dilation_h != 1) {
          if (o.dilation_w <= 0 || o.dilation_h <= 0) return Fail("invalid dilation");
          ins.push_back(Bool(false));
          ins.push_back(I32(o.dilation_w));
          ins.push_back(I32(o.dilation_h));
        }
        Emit(ANEURALNETWORKS_DEPTHWISE_CONV_2D, ins, {act.main_out});
        FinishAct(act);
        return true;
      }
      case op::kTransposeConv: {
        // TFLite order: output_shape, weights, input[, bias].
        if (!NeedInputs(op, 3, 4) || !NeedOutputs(op, 1) || !NeedOptions(op, opt::kTransposeConv) ||
            !PositiveStrides(o))
          return false;
        uint32_t in = In(op, 2), filter = In(op, 1), out = Out(op, 0);
        if (!Ok({in, filter, out})) return false;
        if (Rank(in) != 4 || Rank(filter) != 4) return Fail("input and filter must be 4-D");
        std::vector<int32_t> oshape;
        if (!ConstInts(InIdx(op, 0), &oshape)) return false;
        uint32_t bias = BiasOrZero(op, 3, in, filter, g_->operands[filter].dims[0]);
        if (!Ok({bias})) return false;
        Act act;
        if (!PlanAct(o.activation, out, true, &act)) return false;
        Emit(ANEURALNETWORKS_TRANSPOSE_CONV_2D,
             {in, filter, bias, I32Tensor(oshape), I32(PaddingCode(o.padding)), I32(o.stride_w),
              I32(o.stride_h), I32(act.fuse), Bool(false)},
             {act.main_out});
        FinishAct(act);
        return true;
      }
      case op::kFullyConnected: {
        if (!NeedInputs(op, 2, 3) || !NeedOutputs(op, 1) || !NeedOptions(op, opt::kFullyConnected)) return false;
        if (o.weights_format != 0) return Fail("shuffled FULLY_CONNECTED weights are not supported");
        uint32_t in = In(op, 0), w = In(op, 1), out = Out(op, 0);
        if (!Ok({in, w, out})) return false;
        if (Rank(w) != 2) return Fail("weights must be 2-D");
        uint32_t units = g_->operands[w].dims[0];
        uint32_t bias = BiasOrZero(op, 2, in, w, units);
        if (!Ok({bias})) return false;
        // NNAPI produces [batch, units]; other TFLite output ranks (keep_num_dims) get a RESHAPE.
        const std::vector<uint32_t> od = g_->operands[out].dims;
        uint32_t fc_out = out;
        bool reshape = od.size() != 2;
        if (reshape) {
          uint64_t total = 1;
          for (uint32_t d : od) total *= d;
          if (units == 0 || total % units) return Fail("output shape incompatible with weights");
          fc_out = Temp(out, {static_cast<uint32_t>(total / units), units});
        }
        Act act;
        if (!PlanAct(o.activation, fc_out, true, &act)) return false;
        Emit(ANEURALNETWORKS_FULLY_CONNECTED, {in, w, bias, I32(act.fuse)}, {act.main_out});
        FinishAct(act);
        if (reshape) {
          std::vector<int32_t> shape(od.begin(), od.end());
          Emit(ANEURALNETWORKS_RESHAPE, {fc_out, I32Tensor(shape)}, {out});
        }
        return true;
      }
      case op::kConcatenation: {
        if (op.inputs.empty() || !NeedOutputs(op, 1) || !NeedOptions(op, opt::kConcatenation)) return false;
        std::vector<uint32_t> ins;
        for (size_t k = 0; k < op.inputs.size(); ++k) {
          uint32_t x = In(op, k);
          if (x == kNoOperand) return false;
          ins.push_back(x);
        }
        uint32_t out = Out(op, 0);
        if (!Ok({out})) return false;
        int32_t axis;
        if (!Axis(o.axis, Rank(out), &axis)) return false;
        Act act;
        if (!PlanAct(o.activation, out, false, &act)) return false;
        ins.push_back(I32(axis));
        Emit(ANEURALNETWORKS_CONCATENATION, ins, {act.main_out});
        FinishAct(act);
        return true;
      }
      case op::kReshape: {
        if (!NeedInputs(op, 1, 2) || !NeedOutputs(op, 1)) return false;
        uint32_t in = In(op, 0), out = Out(op, 0);
        if (!Ok({in, out})) return false;
        // The converter already resolved the output shape; it is the target shape NNAPI wants.
        std::vector<int32_t> shape = OutShape(op, 0);
        if (shape.empty()) shape.push_back(1);
        Emit(ANEURALNETWORKS_RESHAPE, {in, I32Tensor(shape)}, {out});
        return true;
      }
      case op::kSoftmax: {
        if (!NeedInputs(op, 1, 1) || !NeedOutputs(op, 1) || !NeedOptions(op, opt::kSoftmax)) return false;
        uint32_t in = In(op, 0), out = Out(op, 0);
        if (!Ok({in, out})) return false;
        Emit(ANEURALNETWORKS_SOFTMAX, {in, FloatScalar(o.beta, in)}, {out});
        return true;
      }
      case op::kLogSoftmax: {
        if (!NeedInputs(op, 1, 1) || !NeedOutputs(op, 1)) return false;
        uint32_t in = In(op, 0), out = Out(op, 0);
        if (!Ok({in, out})) return false;
        Emit(ANEURALNETWORKS_LOG_SOFTMAX, {in, FloatScalar(1.f, in), I32(-1)}, {out});
        return true;
      }
      case op::kPad: case op::kPadV2: case op::kMirrorPad: {
        if (!NeedInputs(op, 2, code == op::kPadV2 ? 3 : 2) || !NeedOutputs(op, 1)) return false;
        uint32_t in = In(op, 0), out = Out(op, 0);
        if (!Ok({in, out})) return false;
        std::vector<int32_t> pads;
        if (!ConstInts(InIdx(op, 1), &pads)) return false;
        if (pads.size() != 2 * Rank(in)) return Fail("paddings must have shape [rank, 2]");
        uint32_t p = OwnedConst<int32_t>(ANEURALNETWORKS_TENSOR_INT32,
                                         {static_cast<uint32_t>(Rank(in)), 2}, pads);
        if (code == op::kMirrorPad) {
          if (o.mirror_pad_mode > 1) return Fail("unknown MIRROR_PAD mode");
          Emit(ANEURALNETWORKS_MIRROR_PAD, {in, p, I32(o.mirror_pad_mode)}, {out});
        } else if (code == op::kPadV2 && InIdx(op, 2) >= 0) {
          uint32_t value;
          if (IsFloat(in)) {
            float v;
            if (!ConstFloat(InIdx(op, 2), &v)) return false;
            value = FloatScalar(v, in);
          } else {
            // Quantized pad values are stored in the tensor's own quantized type.
            const Tensor& vt = T(InIdx(op, 2));
            if (!HasData(InIdx(op, 2)) || TensorTypeSize(vt.type) != 1) return Fail("pad value must be a constant");
            const uint8_t* d = m_.BufferData(vt.buffer);
            value = I32(vt.type == TensorType::kInt8 ? static_cast<int8_t>(d[0]) : d[0]);
          }
          Emit(ANEURALNETWORKS_PAD_V2, {in, p, value}, {out});
        } else {
          Emit(ANEURALNETWORKS_PAD, {in, p}, {out});
        }
        return true;
      }
      case op::kMean: case op::kSum: case op::kReduceMax: case op::kReduceMin: case op::kReduceProd:
      case op::kReduceAny: case op::kReduceAll: {
        if (!NeedInputs(op, 2, 2) || !NeedOutputs(op, 1) || !NeedOptions(op, opt::kReducer)) return false;
        uint32_t in = In(op, 0), out = Out(op, 0);
        if (!Ok({in, out})) return false;
        std::vector<int32_t> axes;
        if (!ConstInts(InIdx(op, 1), &axes)) return false;
        for (int32_t& a : axes) {
          if (!Axis(a, Rank(in), &a)) return false;
        }
        uint32_t axes_op = I32Tensor(axes);
        if (code == op::kMean) {
          Emit(ANEURALNETWORKS_MEAN, {in, axes_op, I32(o.keep_dims ? 1 : 0)}, {out});
        } else {
          int32_t nn = code == op::kSum ? ANEURALNETWORKS_REDUCE_SUM
                       : code == op::kReduceMax ? ANEURALNETWORKS_REDUCE_MAX
                       : code == op::kReduceMin ? ANEURALNETWORKS_REDUCE_MIN
                       : code == op::kReduceProd ? ANEURALNETWORKS_REDUCE_PROD
                       : code == op::kReduceAny ? ANEURALNETWORKS_REDUCE_ANY
                                                : ANEURALNETWORKS_REDUCE_ALL;
          Emit(nn, {in, axes_op, Bool(o.keep_dims)}, {out});
        }
        return true;
      }
      case op::kResizeBilinear: case op::kResizeNearestNeighbor: {
        bool bilinear = code == op::kResizeBilinear;
        if (!NeedInputs(op, 2, 2) || !NeedOutputs(op, 1) ||
            !NeedOptions(op, bilinear ? opt::kResizeBilinear : opt::kResizeNearestNeighbor))
          return false;
        uint32_t in = In(op, 0), out = Out(op, 0);
        if (!Ok({in, out})) return false;
        if (Rank(in) != 4 || Rank(out) != 4) return Fail("input and output must be 4-D");
        if (o.align_corners && o.half_pixel_centers) return Fail("align_corners and half_pixel_centers both set");
        const std::vector<uint32_t> od = g_->operands[out].dims;
        std::vector<uint32_t> ins = {in, I32(static_cast<int32_t>(od[2])), I32(static_cast<int32_t>(od[1]))};
        // Optional inputs only when needed, so older drivers see the FL1 signature.
        if (!bilinear || o.align_corners || o.half_pixel_centers) {
          ins.push_back(Bool(false));
          if (o.align_corners || o.half_pixel_centers) {
            ins.push_back(Bool(o.align_corners));
            ins.push_back(Bool(o.half_pixel_centers));
          }
        }
        Emit(bilinear ? ANEURALNETWORKS_RESIZE_BILINEAR : ANEURALNETWORKS_RESIZE_NEAREST_NEIGHBOR, ins, {out});
        return true;
      }
      case op::kSpaceToDepth: case op::kDepthToSpace: {
        if (!NeedInputs(op, 1, 1) || !NeedOutputs(op, 1)) return false;
        if (o.block_size < 1) return Fail("invalid block size " + std::to_string(o.block_size));
        uint32_t in = In(op, 0), out = Out(op, 0);
        if (!Ok({in, out})) return false;
        Emit(code == op::kSpaceToDepth ? ANEURALNETWORKS_SPACE_TO_DEPTH : ANEURALNETWORKS_DEPTH_TO_SPACE,
             {in, I32(o.block_size)}, {out});
        return true;
      }
      case op::kTranspose: {
        if (!NeedInputs(op, 2, 2) || !NeedOutputs(op, 1)) return false;
        uint32_t in = In(op, 0), out = Out(op, 0);
        if (!Ok({in, out})) return false;
        std::vector<int32_t> perm;
        if (!ConstInts(InIdx(op, 1), &perm)) return false;
        Emit(ANEURALNETWORKS_TRANSPOSE, {in, I32Tensor(perm)}, {out});
        return true;
      }
      case op::kSqueeze: {
        if (!NeedInputs(op, 1, 1) || !NeedOutputs(op, 1) || !NeedOptions(op, opt::kSqueeze)) return false;
        uint32_t in = In(op, 0), out = Out(op, 0);
        if (!Ok({in, out})) return false;
        std::vector<int32_t> dims = o.squeeze_dims;
        if (dims.empty()) {
          const std::vector<uint32_t> id = g_->operands[in].dims;
          for (size_t d = 0; d < id.size(); ++d) {
            if (id[d] == 1) dims.push_back(static_cast<int32_t>(d));
          }
        }
        for (int32_t& d : dims) {
          if (!Axis(d, Rank(in), &d)) return false;
        }
        if (dims.empty()) {
          Emit(ANEURALNETWORKS_RESHAPE, {in, I32Tensor(OutShape(op, 0))}, {out});
        } else {
          Emit(ANEURALNETWORKS_SQUEEZE, {in, I32Tensor(dims)}, {out});
        }
        return true;
      }
      case op::kExpandDims: {
        if (!NeedInputs(op, 2, 2) || !NeedOutputs(op, 1)) return false;
        uint32_t in = In(op, 0), out = Out(op, 0);
        if (!Ok({in, out})) return false;
        int32_t axis;
        if (!ConstInt(InIdx(op, 1), &axis)) return false;
        Emit(ANEURALNETWORKS_EXPAND_DIMS, {in, I32(axis)}, {out});
        return true;
      }
      case op::kStridedSlice: {
        if (!NeedInputs(op, 4, 4) || !NeedOutputs(op, 1) || !NeedOptions(op, opt::kStridedSlice)) return false;
        if (o.ellipsis_mask || o.new_axis_mask) return Fail("ellipsis_mask/new_axis_mask have no NNAPI equivalent");
        if (o.strided_slice_offset) return Fail("offset=true has no NNAPI equivalent");
        uint32_t in = In(op, 0), out = Out(op, 0);
        if (!Ok({in, out})) return false;
        std::vector<int32_t> b, e, s;
        if (!ConstInts(InIdx(op, 1), &b) || !ConstInts(InIdx(op, 2), &e) || !ConstInts(InIdx(op, 3), &s)) return false;
        Emit(ANEURALNETWORKS_STRIDED_SLICE,
             {in, I32Tensor(b), I32Tensor(e), I32Tensor(s), I32(o.begin_mask), I32(o.end_mask), I32(o.shrink_axis_mask)},
             {out});
        return true;
      }
      case op::kSlice: {
        if (!NeedInputs(op, 3, 3) || !NeedOutputs(op, 1)) return false;
        uint32_t in = In(op, 0), out = Out(op, 0);
        if (!Ok({in, out})) return false;
        std::vector<int32_t> b, s;
        if (!ConstInts(InIdx(op, 1), &b) || !ConstInts(InIdx(op, 2), &s)) return false;
        Emit(ANEURALNETWORKS_SLICE, {in, I32Tensor(b), I32Tensor(s)}, {out});
        return true;
      }
      case op::kGather: {
        if (!NeedInputs(op, 2, 2) || !NeedOutputs(op, 1) || !NeedOptions(op, opt::kGather)) return false;
        if (o.batch_dims != 0) return Fail("batch_dims != 0 has no NNAPI equivalent");
        uint32_t in = In(op, 0), idx = In(op, 1), out = Out(op, 0);
        if (!Ok({in, idx, out})) return false;
        Emit(ANEURALNETWORKS_GATHER, {in, I32(o.axis), idx}, {out});
        return true;
      }
      case op::kSplit: {
        // TFLite order: axis, input.
        if (!NeedInputs(op, 2, 2) || op.outputs.empty()) return false;
        uint32_t in = In(op, 1);
        if (!Ok({in})) return false;
        int32_t axis;
        if (!ConstInt(InIdx(op, 0), &axis) || !Axis(axis, Rank(in), &axis)) return false;
        std::vector<uint32_t> outs;
        for (size_t k = 0; k < op.outputs.size(); ++k) {
          uint32_t x = Out(op, k);
          if (x == kNoOperand) return false;
          outs.push_back(x);
        }
        Emit(ANEURALNETWORKS_SPLIT, {in, I32(axis), I32(static_cast<int32_t>(outs.size()))}, outs);
        return true;
      }
      case op::kSplitV: {
        // Unequal pieces: one SLICE per output.
        if (!NeedInputs(op, 3, 3) || op.outputs.empty()) return false;
        uint32_t in = In(op, 0);
        if (!Ok({in})) return false;
        int32_t axis;
        if (!ConstInt(InIdx(op, 2), &axis) || !Axis(axis, Rank(in), &axis)) return false;
        const std::vector<uint32_t> id = g_->operands[in].dims;
        int32_t start = 0;
        for (size_t k = 0; k < op.outputs.size(); ++k) {
          uint32_t x = Out(op, k);
          if (x == kNoOperand) return false;
          const std::vector<uint32_t> xd = g_->operands[x].dims;
          if (xd.size() != id.size()) return Fail("output rank differs from input rank");
          std::vector<int32_t> begin(id.size(), 0), size;
          for (uint32_t d : xd) size.push_back(static_cast<int32_t>(d));
          begin[static_cast<size_t>(axis)] = start;
          start += size[static_cast<size_t>(axis)];
          Emit(ANEURALNETWORKS_SLICE, {in, I32Tensor(begin), I32Tensor(size)}, {x});
        }
        return true;
      }
      case op::kUnpack: {
        if (!NeedInputs(op, 1, 1) || op.outputs.empty()) return false;
        uint32_t in = In(op, 0);
        if (!Ok({in})) return false;
        int32_t axis;
        if (!Axis(o.axis, Rank(in), &axis)) return false;
        std::vector<uint32_t> pieces, outs;
        std::vector<uint32_t> pd = g_->operands[in].dims;
        if (pd[static_cast<size_t>(axis)] != op.outputs.size()) return Fail("output count differs from the unpacked dimension");
        pd[static_cast<size_t>(axis)] = 1;
        for (size_t k = 0; k < op.outputs.size(); ++k) {
          uint32_t x = Out(op, k);
          if (x == kNoOperand) return false;
          outs.push_back(x);
          pieces.push_back(Temp(in, pd));
        }
        Emit(ANEURALNETWORKS_SPLIT, {in, I32(axis), I32(static_cast<int32_t>(outs.size()))}, pieces);
        for (size_t k = 0; k < outs.size(); ++k) {
          std::vector<int32_t> shape = OutShape(op, k);
          if (shape.empty()) shape.push_back(1);
          Emit(ANEURALNETWORKS_RESHAPE, {pieces[k], I32Tensor(shape)}, {outs[k]});
        }
        return true;
      }
      case op::kPack: {
        if (op.inputs.empty() || !NeedOutputs(op, 1) || !NeedOptions(op, opt::kPack)) return false;
        uint32_t out = Out(op, 0);
        if (!Ok({out})) return false;
        int32_t axis;
        if (!Axis(o.axis, Rank(out), &axis)) return false;
        std::vector<uint32_t> ins = {I32(axis)};
        for (size_t k = 0; k < op.inputs.size(); ++k) {
          uint32_t x = In(op, k);
          if (x == kNoOperand) return false;
          ins.push_back(x);
        }
        Emit(ANEURALNETWORKS_PACK, ins, {out});
        return true;
      }
      case op::kTile: {
        if (!NeedInputs(op, 2, 2) || !NeedOutputs(op, 1)) return false;
        uint32_t in = In(op, 0), out = Out(op, 0);
        if (!Ok({in, out})) return false;
        std::vector<int32_t> mult;
        if (!ConstInts(InIdx(op, 1), &mult)) return false;
        Emit(ANEURALNETWORKS_TILE, {in, I32Tensor(mult)}, {out});
        return true;
      }
      case op::kArgMax: case op::kArgMin: {
        if (!NeedInputs(op, 2, 2) || !NeedOutputs(op, 1)) return false;
        if (T(op.outputs[0]).type != TensorType::kInt32) return Fail("only INT32 output indices exist in NNAPI");
        uint32_t in = In(op, 0), out = Out(op, 0);
        if (!Ok({in, out})) return false;
        int32_t axis;
        if (!ConstInt(InIdx(op, 1), &axis)) return false;
        Emit(code == op::kArgMax ? ANEURALNETWORKS_ARGMAX : ANEURALNETWORKS_ARGMIN, {in, I32(axis)}, {out});
        return true;
      }
      case op::kTopKV2: {
        if (!NeedInputs(op, 2, 2) || !NeedOutputs(op, 2)) return false;
        uint32_t in = In(op, 0), v = Out(op, 0), idx = Out(op, 1);
        if (!Ok({in, v, idx})) return false;
        int32_t k;
        if (!ConstInt(InIdx(op, 1), &k)) return false;
        Emit(ANEURALNETWORKS_TOPK_V2, {in, I32(k)}, {v, idx});
        return true;
      }
      case op::kSelect: case op::kSelectV2: {
        if (!NeedInputs(op, 3, 3) || !NeedOutputs(op, 1)) return false;
        uint32_t c = In(op, 0), a = In(op, 1), b = In(op, 2), out = Out(op, 0);
        if (!Ok({c, a, b, out})) return false;
        const std::vector<uint32_t> od = g_->operands[out].dims;
        if (g_->operands[c].dims != od || g_->operands[a].dims != od || g_->operands[b].dims != od) {
          return Fail("broadcasting SELECT has no NNAPI equivalent (shapes must match)");
        }
        Emit(ANEURALNETWORKS_SELECT, {c, a, b}, {out});
        return true;
      }
      case op::kBatchMatMul: {
        if (!NeedInputs(op, 2, 2) || !NeedOutputs(op, 1) || !NeedOptions(op, opt::kBatchMatMul)) return false;
        uint32_t a = In(op, 0), b = In(op, 1), out = Out(op, 0);
        if (!Ok({a, b, out})) return false;
        Emit(ANEURALNETWORKS_BATCH_MATMUL, {a, b, Bool(o.adj_x), Bool(o.adj_y)}, {out});
        return true;
      }
      case op::kSpaceToBatchNd: {
        if (!NeedInputs(op, 3, 3) || !NeedOutputs(op, 1)) return false;
        uint32_t in = In(op, 0), out = Out(op, 0);
        if (!Ok({in, out})) return false;
        std::vector<int32_t> block, pads;
        if (!ConstInts(InIdx(op, 1), &block) || !ConstInts(InIdx(op, 2), &pads)) return false;
        if (pads.size() != 2 * block.size()) return Fail("paddings must have shape [spatial dims, 2]");
        Emit(ANEURALNETWORKS_SPACE_TO_BATCH_ND,
             {in, I32Tensor(block),
              OwnedConst<int32_t>(ANEURALNETWORKS_TENSOR_INT32, {static_cast<uint32_t>(block.size()), 2}, pads)},
             {out});
        return true;
      }
      case op::kBatchToSpaceNd: {
        if (!NeedInputs(op, 3, 3) || !NeedOutputs(op, 1)) return false;
        uint32_t in = In(op, 0), out = Out(op, 0);
        if (!Ok({in, out})) return false;
        std::vector<int32_t> block, crops;
        if (!ConstInts(InIdx(op, 1), &block) || !ConstInts(InIdx(op, 2), &crops)) return false;
        for (int32_t c : crops) {
          if (c != 0) return Fail("non-zero crops have no NNAPI equivalent");
        }
        Emit(ANEURALNETWORKS_BATCH_TO_SPACE_ND, {in, I32Tensor(block)}, {out});
        return true;
      }
      case op::kLocalResponseNormalization: {
        if (!NeedInputs(op, 1, 1) || !NeedOutputs(op, 1) || !NeedOptions(op, opt::kLocalResponseNormalization)) return false;
        uint32_t in = In(op, 0), out = Out(op, 0);
        if (!Ok({in, out})) return false;
        Emit(ANEURALNETWORKS_LOCAL_RESPONSE_NORMALIZATION,
             {in, I32(o.radius), FloatScalar(o.bias, in), FloatScalar(o.lrn_alpha, in), FloatScalar(o.lrn_beta, in)},
             {out});
        return true;
      }
      case op::kFill: {
        if (!NeedInputs(op, 2, 2) || !NeedOutputs(op, 1)) return false;
        uint32_t dims = In(op, 0), out = Out(op, 0);
        if (!Ok({dims, out})) return false;
        uint32_t value;
        if (g_->operands[out].type == ANEURALNETWORKS_TENSOR_INT32) {
          int32_t v;
          if (!ConstInt(InIdx(op, 1), &v)) return false;
          value = I32(v);
        } else if (IsFloat(out)) {
          float v;
          if (!ConstFloat(InIdx(op, 1), &v)) return false;
          value = FloatScalar(v, out);
        } else {
          return Fail("FILL is only mapped for float and int32 outputs");
        }
        Emit(ANEURALNETWORKS_FILL, {dims, value}, {out});
        return true;
      }
      default:
        break;
    }
    const char* name = BuiltinOperatorName(code);
    if (!name) return Fail("unknown builtin operator code " + std::to_string(code));
    switch (code) {
      case op::kCall: case op::kIf: case op::kWhile: case op::kCallOnce:
        return Fail("control flow / subgraph calls are not mapped by this importer");
      case op::kGelu:
        return Fail("no NNAPI equivalent (GELU would need an erf/tanh decomposition)");
      case op::kDensify: {
        auto it = op.outputs.empty() ? densify_errors_.end() : densify_errors_.find(op.outputs[0]);
        if (it != densify_errors_.end()) return Fail(it->second);
        return Fail("only DENSIFY of a constant sparse tensor is supported (folded at import)");
      }
      default:
        return Fail("no NNAPI mapping for this operator");
    }
  }

  // Unary/binary ops with a 1:1 NNAPI counterpart and no parameters.
  bool Simple(const Operator& op, int32_t nn, size_t nin) {
    if (!NeedInputs(op, nin, nin) || !NeedOutputs(op, 1)) return false;
    std::vector<uint32_t> ins;
    for (size_t k = 0; k < nin; ++k) {
      uint32_t x = In(op, k);
      if (x == kNoOperand) return false;
      ins.push_back(x);
    }
    uint32_t out = Out(op, 0);
    if (!Ok({out})) return false;
    Emit(nn, ins, {out});
    return true;
  }

  bool MapCustom(const Operator& op, const std::string& name) {
    if (name == "Convolution2DTransposeBias") {
      // MediaPipe's transposed convolution: inputs (input, weights OHWI, bias); options are a raw
      // struct of three int32: padding (1 = SAME, 2 = VALID), stride_width, stride_height.
      if (!NeedInputs(op, 3, 3) || !NeedOutputs(op, 1)) return false;
      if (op.custom_options_size < 12) {
        return Fail("custom options hold " + std::to_string(op.custom_options_size) +
                    " bytes, expected 12 (padding, stride_width, stride_height)");
      }
      int32_t raw[3];
      std::memcpy(raw, m_.data + op.custom_options_offset, sizeof(raw));
      if (raw[0] != 1 && raw[0] != 2) return Fail("custom options padding " + std::to_string(raw[0]) + " unknown");
      if (raw[1] <= 0 || raw[2] <= 0) return Fail("invalid strides in custom options");
      uint32_t in = In(op, 0), filter = In(op, 1), bias = In(op, 2), out = Out(op, 0);
      if (!Ok({in, filter, bias, out})) return false;
      if (Rank(in) != 4 || Rank(filter) != 4 || Rank(out) != 4) return Fail("input, weights and output must be 4-D");
      std::vector<int32_t> oshape = OutShape(op, 0);
      Emit(ANEURALNETWORKS_TRANSPOSE_CONV_2D,
           {in, filter, bias, I32Tensor(oshape),
            I32(raw[0] == 1 ? ANEURALNETWORKS_PADDING_SAME : ANEURALNETWORKS_PADDING_VALID), I32(raw[1]),
            I32(raw[2]), I32(ANEURALNETWORKS_FUSED_NONE), Bool(false)},
           {out});
      cur_->detail = "MediaPipe custom op";
      return true;
    }
    return Fail("custom operator '" + name + "' has no NNAPI mapping");
  }

  const Model& m_;
  ImportOptions opt_;
  NnGraph* g_;
  ImportReport* r_;
  const SubGraph& sg_;
  std::vector<int32_t> tensor_operand_;
  std::vector<int32_t> folded_;
  std::map<int32_t, std::string> densify_errors_;
  std::vector<bool> is_sg_input_, is_sg_output_, produced_;
  OpReport* cur_ = nullptr;
  int32_t cur_op_ = -1;
  std::string err_;
};

}  // namespace

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
  Planner p(model, options, graph, report);
  return p.Run();
}

const char* NnOperationName(int32_t type) {
  static const char* const kNames[] = {
      "ADD", "AVERAGE_POOL_2D", "CONCATENATION", "CONV_2D", "DEPTHWISE_CONV_2D", "DEPTH_TO_SPACE",
      "DEQUANTIZE", "EMBEDDING_LOOKUP", "FLOOR", "FULLY_CONNECTED", "HASHTABLE_LOOKUP",
      "L2_NORMALIZATION", "L2_POOL_2D", "LOCAL_RESPONSE_NORMALIZATION", "LOGISTIC", "LSH_PROJECTION",
      "LSTM", "MAX_POOL_2D", "MUL", "RELU", "RELU1", "RELU6", "RESHAPE", "RESIZE_BILINEAR", "RNN",
      "SOFTMAX", "SPACE_TO_DEPTH", "SVDF", "TANH", "BATCH_TO_SPACE_ND", "DIV", "MEAN", "PAD",
      "SPACE_TO_BATCH_ND", "SQUEEZE", "STRIDED_SLICE", "SUB", "TRANSPOSE", "ABS", "ARGMAX", "ARGMIN",
      "AXIS_ALIGNED_BBOX_TRANSFORM", "BIDIRECTIONAL_SEQUENCE_LSTM", "BIDIRECTIONAL_SEQUENCE_RNN",
      "BOX_WITH_NMS_LIMIT", "CAST", "CHANNEL_SHUFFLE", "DETECTION_POSTPROCESSING", "EQUAL", "EXP",
      "EXPAND_DIMS", "GATHER", "GENERATE_PROPOSALS", "GREATER", "GREATER_EQUAL", "GROUPED_CONV_2D",
      "HEATMAP_MAX_KEYPOINT", "INSTANCE_NORMALIZATION", "LESS", "LESS_EQUAL", "LOG", "LOGICAL_AND",
      "LOGICAL_NOT", "LOGICAL_OR", "LOG_SOFTMAX", "MAXIMUM", "MINIMUM", "NEG", "NOT_EQUAL", "PAD_V2",
      "POW", "PRELU", "QUANTIZE", "QUANTIZED_16BIT_LSTM", "RANDOM_MULTINOMIAL", "REDUCE_ALL",
      "REDUCE_ANY", "REDUCE_MAX", "REDUCE_MIN", "REDUCE_PROD", "REDUCE_SUM", "ROI_ALIGN",
      "ROI_POOLING", "RSQRT", "SELECT", "SIN", "SLICE", "SPLIT", "SQRT", "TILE", "TOPK_V2",
      "TRANSPOSE_CONV_2D", "UNIDIRECTIONAL_SEQUENCE_LSTM", "UNIDIRECTIONAL_SEQUENCE_RNN",
      "RESIZE_NEAREST_NEIGHBOR", "QUANTIZED_LSTM", "IF", "WHILE", "ELU", "HARD_SWISH", "FILL",
      "RANK", "BATCH_MATMUL", "PACK", "MIRROR_PAD", "REVERSE"};
  if (type >= 0 && type < static_cast<int32_t>(sizeof(kNames) / sizeof(kNames[0]))) return kNames[type];
  return "UNKNOWN_OPERATION";
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
