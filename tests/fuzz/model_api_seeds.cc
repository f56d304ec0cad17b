// Known-valid graphs encoded for the model-building fuzzer, so mutation starts from programs
// that reach compilation and execution instead of failing at the first call.
#include "model_api_seeds.h"

#include <android/NeuralNetworks.h>

#include <cstdio>
#include <functional>
#include <vector>

#include "model_api_program.h"

namespace modelfuzz {
namespace {

constexpr int32_t F32 = ANEURALNETWORKS_TENSOR_FLOAT32;
constexpr int32_t I32 = ANEURALNETWORKS_TENSOR_INT32;
constexpr int32_t Q8 = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
constexpr int32_t Q8S = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED;
constexpr int32_t SI32 = ANEURALNETWORKS_INT32;
constexpr int32_t SF32 = ANEURALNETWORKS_FLOAT32;

void scalar(Writer& w, int32_t v) {
  w.operand(SI32, {});
  w.scalarInt(v);
}
void scalarF(Writer& w, float v) {
  w.operand(SF32, {});
  w.constant(std::vector<float>{v});
}
std::vector<float> ramp(size_t n, float step = 0.25f) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<float>(static_cast<int>(i % 7) - 3) * step;
  return v;
}

// Each graph writes flags, the operands and the operations (auto-identified inputs/outputs).
using Graph = std::function<void(Writer&)>;

void binary(Writer& w, int32_t code, int32_t type, float scale, int32_t zp) {
  w.u8(kAutoIO);
  w.u8(4);
  w.operand(type, {1, 2, 2, 2}, scale, zp); w.noValue();
  w.operand(type, {1, 1, 1, 2}, scale, zp); w.noValue();
  scalar(w, 0);
  w.operand(type, {1, 2, 2, 2}, scale, zp); w.noValue();
  w.u8(1);
  w.operation(code, {0, 1, 2}, {3});
}

void unary(Writer& w, int32_t code, int32_t type, float scale, int32_t zp, float oscale, int32_t ozp) {
  w.u8(kAutoIO);
  w.u8(2);
  w.operand(type, {2, 3}, scale, zp); w.noValue();
  w.operand(type, {2, 3}, oscale, ozp); w.noValue();
  w.u8(1);
  w.operation(code, {0}, {1});
}

void conv(Writer& w, bool quant, bool memory) {
  w.u8(kAutoIO);
  w.u8(9);
  const int32_t t = quant ? Q8 : F32;
  w.operand(t, {1, 5, 5, 2}, quant ? 0.5f : 0.f, quant ? 128 : 0); w.noValue();
  w.operand(t, {3, 3, 3, 2}, quant ? 0.25f : 0.f, quant ? 128 : 0);
  if (quant) w.constant(std::vector<uint8_t>(54, 130), memory);
  else w.constant(ramp(54), memory);
  w.operand(quant ? I32 : F32, {3}, quant ? 0.125f : 0.f, 0);
  if (quant) w.constant(std::vector<int32_t>{1, -2, 3});
  else w.constant(std::vector<float>{0.5f, -1.f, 0.f});
  scalar(w, 1);  // padding SAME
  scalar(w, 1);
  scalar(w, 2);
  scalar(w, 1);  // RELU
  w.operand(t, {1, 3, 5, 3}, quant ? 1.f : 0.f, quant ? 100 : 0); w.noValue();
  w.operand(t, {1, 3, 5, 3}, quant ? 1.f : 0.f, quant ? 100 : 0); w.noValue();
  w.u8(2);
  w.operation(ANEURALNETWORKS_CONV_2D, {0, 1, 2, 3, 4, 5, 6}, {7});
  w.operation(ANEURALNETWORKS_ADD, {7, 7, 6}, {8});
}

void depthwise(Writer& w) {
  w.u8(kAutoIO);
  w.u8(9);
  w.operand(F32, {1, 4, 4, 2}); w.noValue();
  w.operand(F32, {1, 3, 3, 4}); w.constant(ramp(36));
  w.operand(F32, {4}); w.constant(std::vector<float>{0.f, 1.f, 2.f, 3.f});
  scalar(w, 2);  // VALID
  scalar(w, 1);
  scalar(w, 1);
  scalar(w, 2);  // depth multiplier
  scalar(w, 0);
  w.operand(F32, {1, 2, 2, 4}); w.noValue();
  w.u8(1);
  w.operation(ANEURALNETWORKS_DEPTHWISE_CONV_2D, {0, 1, 2, 3, 4, 5, 6, 7}, {8});
}

void pool(Writer& w, int32_t code, int32_t type) {
  w.u8(kAutoIO);
  w.u8(8);
  w.operand(type, {1, 4, 4, 1}, type == F32 ? 0.f : 0.5f, type == Q8 ? 128 : 0); w.noValue();
  scalar(w, 1);
  scalar(w, 2);
  scalar(w, 2);
  scalar(w, 2);
  scalar(w, 2);
  scalar(w, 0);
  w.operand(type, {1, 2, 2, 1}, type == F32 ? 0.f : 0.5f, type == Q8 ? 128 : 0); w.noValue();
  w.u8(1);
  w.operation(code, {0, 1, 2, 3, 4, 5, 6}, {7});
}

void softmax(Writer& w, bool quant, float beta) {
  w.u8(kAutoIO);
  w.u8(3);
  w.operand(quant ? Q8 : F32, {2, 5}, quant ? 0.5f : 0.f, quant ? 128 : 0); w.noValue();
  scalarF(w, beta);
  w.operand(quant ? Q8 : F32, {2, 5}, quant ? 1.f / 256 : 0.f, 0); w.noValue();
  w.u8(1);
  w.operation(ANEURALNETWORKS_SOFTMAX, {0, 1}, {2});
}

void fullyConnected(Writer& w) {
  w.u8(kAutoIO);
  w.u8(5);
  w.operand(F32, {2, 4}); w.noValue();
  w.operand(F32, {3, 4}); w.constant(ramp(12));
  w.operand(F32, {3}); w.constant(std::vector<float>{1.f, 0.f, -1.f});
  scalar(w, 0);
  w.operand(F32, {2, 3}); w.noValue();
  w.u8(1);
  w.operation(ANEURALNETWORKS_FULLY_CONNECTED, {0, 1, 2, 3}, {4});
}

void reshapeConcat(Writer& w) {
  w.u8(kAutoIO);
  w.u8(6);
  w.operand(F32, {1, 2, 2, 1}); w.noValue();
  w.operand(I32, {2}); w.constant(std::vector<int32_t>{1, 4});
  w.operand(F32, {1, 4}); w.noValue();
  w.operand(F32, {1, 3}); w.noValue();
  scalar(w, 1);
  w.operand(F32, {1, 7}); w.noValue();
  w.u8(2);
  w.operation(ANEURALNETWORKS_RESHAPE, {0, 1}, {2});
  w.operation(ANEURALNETWORKS_CONCATENATION, {2, 3, 4}, {5});
}

void transposeConv(Writer& w) {
  w.u8(kAutoIO);
  w.u8(12);
  w.operand(F32, {1, 3, 3, 1}); w.noValue();
  w.operand(F32, {2, 3, 3, 1}); w.constant(ramp(18));
  w.operand(F32, {2}); w.constant(std::vector<float>{0.f, 1.f});
  scalar(w, 0); scalar(w, 0); scalar(w, 0); scalar(w, 0);  // explicit padding
  scalar(w, 2); scalar(w, 2);                               // strides
  scalar(w, 0);                                             // activation
  w.operand(ANEURALNETWORKS_BOOL, {}); w.constant(std::vector<uint8_t>{0});  // NHWC
  w.operand(F32, {1, 7, 7, 2}); w.noValue();
  w.u8(1);
  w.operation(ANEURALNETWORKS_TRANSPOSE_CONV_2D, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, {11});
}

// WHILE (i < 5) i = i + 1, with nested condition and body models.
void whileLoop(Writer& w) {
  w.u8(kAutoIO);
  w.u8(4);
  w.operand(ANEURALNETWORKS_MODEL, {});
  w.u8(kNested);
  {  // condition: LESS(i, limit)
    w.u8(kAutoIO);
    w.u8(3);
    w.operand(I32, {1}); w.noValue();
    w.operand(I32, {1}); w.constant(std::vector<int32_t>{5});
    w.operand(ANEURALNETWORKS_TENSOR_BOOL8, {1}); w.noValue();
    w.u8(1);
    w.operation(ANEURALNETWORKS_LESS, {0, 1}, {2});
  }
  w.operand(ANEURALNETWORKS_MODEL, {});
  w.u8(kNested);
  {  // body: ADD(i, 1)
    w.u8(kAutoIO);
    w.u8(4);
    w.operand(I32, {1}); w.noValue();
    w.operand(I32, {1}); w.constant(std::vector<int32_t>{1});
    scalar(w, 0);
    w.operand(I32, {1}); w.noValue();
    w.u8(1);
    w.operation(ANEURALNETWORKS_ADD, {0, 1, 2}, {3});
  }
  w.operand(I32, {1}); w.noValue();
  w.operand(I32, {1}); w.noValue();
  w.u8(1);
  w.operation(ANEURALNETWORKS_WHILE, {0, 1, 2}, {3});
}

// IF (c) then x+x else x*x.
void ifThen(Writer& w) {
  w.u8(kAutoIO);
  w.u8(5);
  w.operand(ANEURALNETWORKS_TENSOR_BOOL8, {1}); w.noValue();
  for (int32_t code : {ANEURALNETWORKS_ADD, ANEURALNETWORKS_MUL}) {
    w.operand(ANEURALNETWORKS_MODEL, {});
    w.u8(kNested);
    w.u8(kAutoIO);
    w.u8(3);
    w.operand(F32, {2}); w.noValue();
    scalar(w, 0);
    w.operand(F32, {2}); w.noValue();
    w.u8(1);
    w.operation(code, {0, 0, 1}, {2});
  }
  w.operand(F32, {2}); w.noValue();
  w.operand(F32, {2}); w.noValue();
  w.u8(1);
  w.operation(ANEURALNETWORKS_IF, {0, 1, 2, 3}, {4});
}

// Dynamic output shape: unknown output dims, TILE by constant multiples.
void tileDynamic(Writer& w) {
  w.u8(kAutoIO);
  w.u8(3);
  w.operand(F32, {2, 2}); w.noValue();
  w.operand(I32, {2}); w.constant(std::vector<int32_t>{2, 3});
  w.operand(F32, {0, 0}); w.noValue();
  w.u8(1);
  w.operation(ANEURALNETWORKS_TILE, {0, 1}, {2});
}

struct Named {
  const char* name;
  Graph graph;
  bool relax = false;
};

}  // namespace

bool writeSeeds(const std::string& dir) {
  const std::vector<Named> graphs = {
      {"add_f32", [](Writer& w) { binary(w, ANEURALNETWORKS_ADD, F32, 0.f, 0); }},
      {"add_q8", [](Writer& w) { binary(w, ANEURALNETWORKS_ADD, Q8, 0.5f, 128); }},
      {"mul_q8s", [](Writer& w) { binary(w, ANEURALNETWORKS_MUL, Q8S, 0.25f, -3); }},
      {"sub_f32_relaxed", [](Writer& w) { binary(w, ANEURALNETWORKS_SUB, F32, 0.f, 0); }, true},
      {"relu_f32", [](Writer& w) { unary(w, ANEURALNETWORKS_RELU, F32, 0.f, 0, 0.f, 0); }},
      {"logistic_q8", [](Writer& w) { unary(w, ANEURALNETWORKS_LOGISTIC, Q8, 0.1f, 128, 1.f / 256, 0); }},
      {"tanh_f32", [](Writer& w) { unary(w, ANEURALNETWORKS_TANH, F32, 0.f, 0, 0.f, 0); }},
      {"conv_f32", [](Writer& w) { conv(w, false, false); }},
      {"conv_f32_memory", [](Writer& w) { conv(w, false, true); }},
      {"conv_q8", [](Writer& w) { conv(w, true, false); }},
      {"depthwise_f32", depthwise},
      {"avgpool_f32", [](Writer& w) { pool(w, ANEURALNETWORKS_AVERAGE_POOL_2D, F32); }},
      {"maxpool_q8", [](Writer& w) { pool(w, ANEURALNETWORKS_MAX_POOL_2D, Q8); }},
      {"softmax_f32", [](Writer& w) { softmax(w, false, 1.f); }},
      {"softmax_q8", [](Writer& w) { softmax(w, true, 0.5f); }},
      {"fully_connected_f32", fullyConnected},
      {"reshape_concat_f32", reshapeConcat},
      {"transpose_conv_f32", transposeConv},
      {"while_i32", whileLoop},
      {"if_f32", ifThen},
      {"tile_dynamic_f32", tileDynamic},
  };
  // compile byte (0 default, 1.. device), preference, priority, timeout, exec mode.
  struct Mode { const char* name; uint8_t compile, mode; };
  const Mode modes[] = {{"sync", 0, 0x00}, {"dev1_async", 1, 0x01}, {"dev2_burst_mem", 2, 0x06},
                        {"reusable", 0, 0x03}};
  int written = 0;
  for (size_t g = 0; g < graphs.size(); ++g) {
    for (size_t m = 0; m < 4; ++m) {
      if (m >= 2 && (g % 2) != (m % 2)) continue;  // two or three modes per graph
      Writer w;
      graphs[g].graph(w);
      if (graphs[g].relax) w.bytes[0] |= kRelax;
      w.u8(modes[m].compile);
      w.u8(1);     // preference: fast single answer
      w.u8(0);     // default priority
      w.u8(1);     // a compilation deadline where allowed
      w.u8(modes[m].mode);
      for (int i = 0; i < 256; ++i) w.u8(static_cast<uint32_t>(i * 37 + 11));  // input data
      const std::string path = dir + "/" + graphs[g].name + "_" + modes[m].name + ".bin";
      FILE* f = fopen(path.c_str(), "wb");
      if (!f) return false;
      fwrite(w.bytes.data(), 1, w.bytes.size(), f);
      fclose(f);
      ++written;
    }
  }
  printf("wrote %d seeds to %s\n", written, dir.c_str());
  return true;
}

}  // namespace modelfuzz
