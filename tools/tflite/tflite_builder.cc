#include "tflite_builder.h"

#include <algorithm>

namespace nnapi_tflite {

TfliteBuilder::TfliteBuilder() { buffers_.emplace_back(); }

uint32_t TfliteBuilder::AddBuffer(const void* data, size_t size) {
  const uint8_t* p = static_cast<const uint8_t*>(data);
  buffers_.emplace_back(p, p + size);
  return static_cast<uint32_t>(buffers_.size() - 1);
}

int32_t TfliteBuilder::AddTensor(const TensorSpec& spec) {
  tensors_.push_back(spec);
  return static_cast<int32_t>(tensors_.size() - 1);
}

int32_t TfliteBuilder::AddFloatTensor(const std::vector<int32_t>& shape, const std::string& name) {
  TensorSpec s;
  s.shape = shape;
  s.name = name;
  return AddTensor(s);
}

int32_t TfliteBuilder::AddFloatConst(const std::vector<int32_t>& shape,
                                     const std::vector<float>& values, const std::string& name) {
  TensorSpec s;
  s.shape = shape;
  s.name = name;
  s.buffer = AddBuffer(values);
  return AddTensor(s);
}

int32_t TfliteBuilder::AddInt32Const(const std::vector<int32_t>& shape,
                                     const std::vector<int32_t>& values, const std::string& name) {
  TensorSpec s;
  s.shape = shape;
  s.name = name;
  s.type = TensorType::kInt32;
  s.buffer = AddBuffer(values);
  return AddTensor(s);
}

uint32_t TfliteBuilder::AddOperatorCode(int32_t builtin, const std::string& custom,
                                        int32_t version) {
  for (size_t i = 0; i < codes_.size(); ++i) {
    if (codes_[i].builtin == builtin && codes_[i].custom == custom && codes_[i].version == version)
      return static_cast<uint32_t>(i);
  }
  codes_.push_back({builtin, custom, version});
  return static_cast<uint32_t>(codes_.size() - 1);
}

void TfliteBuilder::AddOperator(int32_t builtin, const std::vector<int32_t>& inputs,
                                const std::vector<int32_t>& outputs, uint8_t options_type,
                                FbRef options, const std::vector<uint8_t>& custom_options,
                                const std::string& custom_code) {
  OpRec r;
  r.opcode = AddOperatorCode(builtin, custom_code);
  r.inputs = inputs;
  r.outputs = outputs;
  r.options_type = options ? options_type : 0;
  r.options = std::move(options);
  r.custom_options = custom_options;
  ops_.push_back(std::move(r));
}

std::vector<uint8_t> TfliteBuilder::Finish() const {
  std::vector<FbRef> codes;
  for (const CodeRec& c : codes_) {
    FbRef t = FbNode::Table();
    // Writers set the byte field to the placeholder for codes that do not fit in it.
    int8_t dep = static_cast<int8_t>(std::min<int32_t>(c.builtin, op::kPlaceholderForGreaterOpCodes));
    t->Set<int8_t>(0, dep);
    if (!c.custom.empty()) t->SetRef(1, FbNode::String(c.custom));
    t->Set<int32_t>(2, c.version);
    t->Set<int32_t>(3, c.builtin);
    codes.push_back(t);
  }
  std::vector<FbRef> tensors;
  for (const TensorSpec& s : tensors_) {
    FbRef t = FbNode::Table();
    t->SetRef(0, FbNode::Vector(s.shape));
    t->Set<int8_t>(1, static_cast<int8_t>(s.type));
    t->Set<uint32_t>(2, s.buffer);
    t->SetRef(3, FbNode::String(s.name));
    if (!s.scale.empty() || !s.zero_point.empty()) {
      FbRef q = FbNode::Table();
      q->SetRef(2, FbNode::Vector(s.scale));
      q->SetRef(3, FbNode::Vector(s.zero_point));
      q->Set<int32_t>(6, s.quantized_dimension);
      t->SetRef(4, q);
    }
    if (!s.shape_signature.empty()) t->SetRef(7, FbNode::Vector(s.shape_signature));
    tensors.push_back(t);
  }
  std::vector<FbRef> ops;
  for (const OpRec& r : ops_) {
    FbRef t = FbNode::Table();
    t->Set<uint32_t>(0, r.opcode);
    t->SetRef(1, FbNode::Vector(r.inputs));
    t->SetRef(2, FbNode::Vector(r.outputs));
    if (r.options) {
      t->Set<uint8_t>(3, r.options_type);
      t->SetRef(4, r.options);
    }
    if (!r.custom_options.empty()) t->SetRef(5, FbNode::Vector(r.custom_options, 4));
    ops.push_back(t);
  }
  FbRef sg = FbNode::Table();
  sg->SetRef(0, FbNode::Vector(tensors));
  sg->SetRef(1, FbNode::Vector(inputs_));
  sg->SetRef(2, FbNode::Vector(outputs_));
  sg->SetRef(3, FbNode::Vector(ops));
  sg->SetRef(4, FbNode::String("main"));

  std::vector<FbRef> bufs;
  for (const auto& b : buffers_) {
    FbRef t = FbNode::Table();
    if (!b.empty()) t->SetRef(0, FbNode::Bytes(b.data(), b.size(), 16));
    bufs.push_back(t);
  }
  FbRef model = FbNode::Table();
  model->Set<uint32_t>(0, 3);
  model->SetRef(1, FbNode::Vector(codes));
  model->SetRef(2, FbNode::Vector(std::vector<FbRef>{sg}));
  model->SetRef(3, FbNode::String("built in memory"));
  model->SetRef(4, FbNode::Vector(bufs));
  return FbNode::Finish(model, "TFL3");
}

FbRef TfliteBuilder::Conv2DOptions(Padding p, int32_t sw, int32_t sh, Activation act, int32_t dw,
                                   int32_t dh) {
  FbRef t = FbNode::Table();
  t->Set<int8_t>(0, static_cast<int8_t>(p))
      .Set<int32_t>(1, sw)
      .Set<int32_t>(2, sh)
      .Set<int8_t>(3, static_cast<int8_t>(act))
      .Set<int32_t>(4, dw)
      .Set<int32_t>(5, dh);
  return t;
}

FbRef TfliteBuilder::DepthwiseOptions(Padding p, int32_t sw, int32_t sh, int32_t mult,
                                      Activation act) {
  FbRef t = FbNode::Table();
  t->Set<int8_t>(0, static_cast<int8_t>(p))
      .Set<int32_t>(1, sw)
      .Set<int32_t>(2, sh)
      .Set<int32_t>(3, mult)
      .Set<int8_t>(4, static_cast<int8_t>(act));
  return t;
}

FbRef TfliteBuilder::Pool2DOptions(Padding p, int32_t sw, int32_t sh, int32_t fw, int32_t fh,
                                   Activation act) {
  FbRef t = FbNode::Table();
  t->Set<int8_t>(0, static_cast<int8_t>(p))
      .Set<int32_t>(1, sw)
      .Set<int32_t>(2, sh)
      .Set<int32_t>(3, fw)
      .Set<int32_t>(4, fh)
      .Set<int8_t>(5, static_cast<int8_t>(act));
  return t;
}

FbRef TfliteBuilder::ActivationOptions(Activation act) {
  FbRef t = FbNode::Table();
  t->Set<int8_t>(0, static_cast<int8_t>(act));
  return t;
}

FbRef TfliteBuilder::ConcatenationOptions(int32_t axis, Activation act) {
  FbRef t = FbNode::Table();
  t->Set<int32_t>(0, axis).Set<int8_t>(1, static_cast<int8_t>(act));
  return t;
}

FbRef TfliteBuilder::SoftmaxOptions(float beta) {
  FbRef t = FbNode::Table();
  t->Set<float>(0, beta);
  return t;
}

FbRef TfliteBuilder::ReshapeOptions(const std::vector<int32_t>& new_shape) {
  FbRef t = FbNode::Table();
  t->SetRef(0, FbNode::Vector(new_shape));
  return t;
}

FbRef TfliteBuilder::ResizeBilinearOptions(bool align_corners, bool half_pixel_centers) {
  FbRef t = FbNode::Table();
  t->Set<uint8_t>(2, align_corners).Set<uint8_t>(3, half_pixel_centers);
  return t;
}

FbRef TfliteBuilder::ReducerOptions(bool keep_dims) {
  FbRef t = FbNode::Table();
  t->Set<uint8_t>(0, keep_dims);
  return t;
}

}  // namespace nnapi_tflite
