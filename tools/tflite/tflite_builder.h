// Builds small .tflite models in memory (single subgraph), for tests and fuzz seeds.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "flatbuffer_writer.h"
#include "tflite_model.h"

namespace nnapi_tflite {

class TfliteBuilder {
 public:
  TfliteBuilder();

  // Returns the buffer index. Buffer 0 is the empty sentinel.
  uint32_t AddBuffer(const void* data, size_t size);
  template <typename T>
  uint32_t AddBuffer(const std::vector<T>& v) {
    return AddBuffer(v.data(), v.size() * sizeof(T));
  }

  struct TensorSpec {
    std::vector<int32_t> shape;
    TensorType type = TensorType::kFloat32;
    uint32_t buffer = 0;
    std::string name;
    std::vector<float> scale;
    std::vector<int64_t> zero_point;
    int32_t quantized_dimension = 0;
    std::vector<int32_t> shape_signature;
  };
  int32_t AddTensor(const TensorSpec& spec);
  // Convenience: float32 activation tensor / constant tensor.
  int32_t AddFloatTensor(const std::vector<int32_t>& shape, const std::string& name);
  int32_t AddFloatConst(const std::vector<int32_t>& shape, const std::vector<float>& values,
                        const std::string& name);
  int32_t AddInt32Const(const std::vector<int32_t>& shape, const std::vector<int32_t>& values,
                        const std::string& name);

  // Returns the opcode index (deduplicated).
  uint32_t AddOperatorCode(int32_t builtin, const std::string& custom_code = "", int32_t version = 1);

  // `options` is a table built with FbNode::Table() whose union type is `options_type`
  // (opt::k* values); pass nullptr for none.
  void AddOperator(int32_t builtin, const std::vector<int32_t>& inputs,
                   const std::vector<int32_t>& outputs, uint8_t options_type = 0,
                   FbRef options = nullptr, const std::vector<uint8_t>& custom_options = {},
                   const std::string& custom_code = "");

  void SetInputs(const std::vector<int32_t>& v) { inputs_ = v; }
  void SetOutputs(const std::vector<int32_t>& v) { outputs_ = v; }

  std::vector<uint8_t> Finish() const;

  // Options helpers (field ids per the schema).
  static FbRef Conv2DOptions(Padding p, int32_t sw, int32_t sh, Activation act, int32_t dw = 1,
                             int32_t dh = 1);
  static FbRef DepthwiseOptions(Padding p, int32_t sw, int32_t sh, int32_t mult, Activation act);
  static FbRef Pool2DOptions(Padding p, int32_t sw, int32_t sh, int32_t fw, int32_t fh,
                             Activation act);
  static FbRef ActivationOptions(Activation act);  // Add/Mul/Sub/Div/FullyConnected
  static FbRef ConcatenationOptions(int32_t axis, Activation act);
  static FbRef SoftmaxOptions(float beta);
  static FbRef ReshapeOptions(const std::vector<int32_t>& new_shape);
  static FbRef ResizeBilinearOptions(bool align_corners, bool half_pixel_centers);
  static FbRef ReducerOptions(bool keep_dims);

 private:
  struct OpRec {
    uint32_t opcode;
    std::vector<int32_t> inputs, outputs;
    uint8_t options_type;
    FbRef options;
    std::vector<uint8_t> custom_options;
  };
  struct CodeRec {
    int32_t builtin;
    std::string custom;
    int32_t version;
  };
  std::vector<std::vector<uint8_t>> buffers_;
  std::vector<TensorSpec> tensors_;
  std::vector<CodeRec> codes_;
  std::vector<OpRec> ops_;
  std::vector<int32_t> inputs_, outputs_;
};

}  // namespace nnapi_tflite
