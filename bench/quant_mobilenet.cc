#include "quant_mobilenet.h"

#include <android/NeuralNetworks.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <memory>
#include <vector>

namespace bench {
namespace {

using Clock = std::chrono::steady_clock;

struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed) {}
  uint32_t next() {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<uint32_t>(s >> 33);
  }
  float uniform(float lo, float hi) { return lo + (hi - lo) * (next() * (1.0f / 2147483648.0f)); }
};

// Activation ranges: RELU6 outputs [0, 6]; the linear bottlenecks of v2 (and their residual
// sums) [-8, 8]. The network input is [-1, 1].
struct QuantRange {
  float scale;
  int32_t zeroU8;  // QUANT8_ASYMM zero point; the signed one is zeroU8 - 128
};
constexpr QuantRange kRelu6{6.0f / 255.0f, 0};
constexpr QuantRange kLinear{16.0f / 255.0f, 128};
constexpr QuantRange kImage{2.0f / 255.0f, 128};

class QuantBuilder {
 public:
  QuantBuilder(ANeuralNetworksModel* m, bool isSigned) : model_(m), signed_(isSigned) {}

  bool ok() const { return ok_; }
  int32_t actType() const {
    return signed_ ? ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED : ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
  }
  int32_t zero(const QuantRange& r) const { return signed_ ? r.zeroU8 - 128 : r.zeroU8; }

  uint32_t operand(int32_t type, const std::vector<uint32_t>& dims, float scale, int32_t zp) {
    ANeuralNetworksOperandType t{type, static_cast<uint32_t>(dims.size()),
                                 dims.empty() ? nullptr : dims.data(), scale, zp};
    check(ANeuralNetworksModel_addOperand(model_, &t));
    return next_++;
  }
  uint32_t act(const std::vector<uint32_t>& dims, const QuantRange& r) {
    return operand(actType(), dims, r.scale, zero(r));
  }
  uint32_t scalar(int32_t v) {
    const uint32_t id = operand(ANEURALNETWORKS_INT32, {}, 0.f, 0);
    check(ANeuralNetworksModel_setOperandValue(model_, id, &v, sizeof v));
    return id;
  }
  uint32_t floatScalar(float v) {
    const uint32_t id = operand(ANEURALNETWORKS_FLOAT32, {}, 0.f, 0);
    check(ANeuralNetworksModel_setOperandValue(model_, id, &v, sizeof v));
    return id;
  }
  // A constant whose bytes the builder keeps alive until the model is freed.
  void setConstant(uint32_t id, std::vector<uint8_t> bytes) {
    blobs_.push_back(std::make_unique<std::vector<uint8_t>>(std::move(bytes)));
    check(ANeuralNetworksModel_setOperandValue(model_, id, blobs_.back()->data(),
                                               blobs_.back()->size()));
  }

  // Random filter [outC, ...] with fan-in `fanIn` (He-style range) and its bias; per-channel
  // (channel dimension `channelDim`) when `perChannel`. Returns {filter, bias}.
  std::pair<uint32_t, uint32_t> weights(const std::vector<uint32_t>& dims, uint32_t channels,
                                        uint32_t channelDim, uint32_t fanIn, float inScale,
                                        bool perChannel) {
    size_t count = 1;
    for (uint32_t d : dims) count *= d;
    const float range = std::sqrt(6.0f / static_cast<float>(fanIn));
    std::vector<float> scales(channels);
    for (float& s : scales) s = range / 127.0f * (perChannel ? rng_.uniform(0.5f, 1.5f) : 1.0f);
    std::vector<uint8_t> w(count);
    for (auto& b : w) {
      const int32_t v = static_cast<int32_t>(rng_.next() % 255) - 127;  // [-127, 127]
      b = static_cast<uint8_t>(perChannel || signed_ ? v : v + 128);
    }
    uint32_t filter;
    if (perChannel) {
      filter = operand(ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL, dims, 0.f, 0);
      ANeuralNetworksSymmPerChannelQuantParams pc{channelDim, channels, scales.data()};
      check(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(model_, filter, &pc));
    } else {
      filter = operand(signed_ ? ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED
                               : ANEURALNETWORKS_TENSOR_QUANT8_ASYMM,
                       dims, scales[0], signed_ ? 0 : 128);
    }
    setConstant(filter, std::move(w));
    std::vector<int32_t> bias(channels);
    for (uint32_t c = 0; c < channels; ++c)
      bias[c] = static_cast<int32_t>(std::lround(rng_.uniform(0.f, 0.1f) / (inScale * scales[c])));
    const uint32_t b = operand(ANEURALNETWORKS_TENSOR_INT32, {channels},
                               perChannel ? 0.f : inScale * scales[0], 0);
    std::vector<uint8_t> bytes(channels * 4);
    std::memcpy(bytes.data(), bias.data(), bytes.size());
    setConstant(b, std::move(bytes));
    return {filter, b};
  }

  void op(int32_t type, const std::vector<uint32_t>& in, uint32_t out) {
    check(ANeuralNetworksModel_addOperation(model_, type, static_cast<uint32_t>(in.size()),
                                            in.data(), 1, &out));
  }

 private:
  void check(int rc) {
    if (rc != ANEURALNETWORKS_NO_ERROR) {
      if (ok_) fprintf(stderr, "quant MobileNet: a model call failed with %d (operand %u)\n", rc, next_);
      ok_ = false;
    }
  }
  ANeuralNetworksModel* model_;
  bool signed_;
  bool ok_ = true;
  uint32_t next_ = 0;
  Rng rng_{0x9e3779b9u};
  std::vector<std::unique_ptr<std::vector<uint8_t>>> blobs_;
};

// A feature map in the graph: operand id, size, channels and quantization.
struct Tensor {
  uint32_t id, h, c;
  QuantRange range;
};

struct Net {
  QuantBuilder& b;
  bool perChannel;
  double macs = 0;

  Tensor conv(const Tensor& x, uint32_t outC, uint32_t k, uint32_t stride, bool relu6) {
    const uint32_t outH = (x.h + stride - 1) / stride;
    auto [w, bias] = b.weights({outC, k, k, x.c}, outC, 0, k * k * x.c, x.range.scale, perChannel);
    const QuantRange r = relu6 ? kRelu6 : kLinear;
    const uint32_t out = b.act({1, outH, outH, outC}, r);
    b.op(ANEURALNETWORKS_CONV_2D,
         {x.id, w, bias, b.scalar(ANEURALNETWORKS_PADDING_SAME), b.scalar(stride),
          b.scalar(stride), b.scalar(relu6 ? ANEURALNETWORKS_FUSED_RELU6 : ANEURALNETWORKS_FUSED_NONE)},
         out);
    macs += double(outH) * outH * outC * k * k * x.c;
    return {out, outH, outC, r};
  }
  Tensor depthwise(const Tensor& x, uint32_t stride) {
    const uint32_t outH = (x.h + stride - 1) / stride;
    auto [w, bias] = b.weights({1, 3, 3, x.c}, x.c, 3, 9, x.range.scale, perChannel);
    const uint32_t out = b.act({1, outH, outH, x.c}, kRelu6);
    b.op(ANEURALNETWORKS_DEPTHWISE_CONV_2D,
         {x.id, w, bias, b.scalar(ANEURALNETWORKS_PADDING_SAME), b.scalar(stride),
          b.scalar(stride), b.scalar(1), b.scalar(ANEURALNETWORKS_FUSED_RELU6)},
         out);
    macs += double(outH) * outH * x.c * 9;
    return {out, outH, x.c, kRelu6};
  }
  Tensor add(const Tensor& x, const Tensor& y) {
    const uint32_t out = b.act({1, x.h, x.h, x.c}, kLinear);
    b.op(ANEURALNETWORKS_ADD, {x.id, y.id, b.scalar(ANEURALNETWORKS_FUSED_NONE)}, out);
    return {out, x.h, x.c, kLinear};
  }
  // Global average pool, FULLY_CONNECTED to 1001 classes, SOFTMAX; returns the output id.
  uint32_t head(const Tensor& x) {
    const uint32_t pooled = b.act({1, 1, 1, x.c}, x.range);
    b.op(ANEURALNETWORKS_AVERAGE_POOL_2D,
         {x.id, b.scalar(ANEURALNETWORKS_PADDING_VALID), b.scalar(1), b.scalar(1),
          b.scalar(static_cast<int32_t>(x.h)), b.scalar(static_cast<int32_t>(x.h)),
          b.scalar(ANEURALNETWORKS_FUSED_NONE)},
         pooled);
    const int32_t shape[2] = {1, static_cast<int32_t>(x.c)};
    const uint32_t s = b.operand(ANEURALNETWORKS_TENSOR_INT32, {2}, 0.f, 0);
    std::vector<uint8_t> bytes(sizeof shape);
    std::memcpy(bytes.data(), shape, sizeof shape);
    b.setConstant(s, std::move(bytes));
    const uint32_t flat = b.act({1, x.c}, x.range);
    b.op(ANEURALNETWORKS_RESHAPE, {pooled, s}, flat);
    auto [w, bias] = b.weights({1001, x.c}, 1001, 0, x.c, x.range.scale, /*perChannel=*/false);
    const uint32_t logits = b.act({1, 1001}, kLinear);
    b.op(ANEURALNETWORKS_FULLY_CONNECTED, {flat, w, bias, b.scalar(ANEURALNETWORKS_FUSED_NONE)},
         logits);
    macs += 1001.0 * x.c;
    // SOFTMAX's quant8 output: scale 1/256, zero point 0 (uint8) or -128 (int8).
    const uint32_t probs = b.act({1, 1001}, QuantRange{1.0f / 256.0f, 0});
    b.op(ANEURALNETWORKS_SOFTMAX, {logits, b.floatScalar(1.0f)}, probs);
    return probs;
  }
};

Tensor mobilenetV1(Net& n, Tensor x) {
  x = n.conv(x, 32, 3, 2, true);
  const uint32_t blocks[13][2] = {{1, 64},  {2, 128}, {1, 128}, {2, 256}, {1, 256},
                                  {2, 512}, {1, 512}, {1, 512}, {1, 512}, {1, 512},
                                  {1, 512}, {2, 1024}, {1, 1024}};
  for (const auto& blk : blocks) {
    x = n.depthwise(x, blk[0]);
    x = n.conv(x, blk[1], 1, 1, true);
  }
  return x;
}

Tensor mobilenetV2(Net& n, Tensor x) {
  x = n.conv(x, 32, 3, 2, true);
  // (expansion t, channels c, repeats, first stride)
  const uint32_t blocks[7][4] = {{1, 16, 1, 1},  {6, 24, 2, 2},  {6, 32, 3, 2}, {6, 64, 4, 2},
                                 {6, 96, 3, 1},  {6, 160, 3, 2}, {6, 320, 1, 1}};
  for (const auto& blk : blocks)
    for (uint32_t i = 0; i < blk[2]; ++i) {
      const uint32_t stride = i == 0 ? blk[3] : 1;
      Tensor y = x;
      if (blk[0] != 1) y = n.conv(y, x.c * blk[0], 1, 1, true);
      y = n.depthwise(y, stride);
      y = n.conv(y, blk[1], 1, 1, false);  // linear bottleneck
      x = stride == 1 && x.c == blk[1] ? n.add(x, y) : y;
    }
  return n.conv(x, 1280, 1, 1, true);
}

struct Variant {
  const char* name;  // result key part
  bool v2;
  bool isSigned;
};

double threadCpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

double msSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

bool runOne(const Variant& v, const QuantRunOptions& opt,
            std::vector<std::pair<std::string, double>>* results) {
  ANeuralNetworksModel* model = nullptr;
  if (ANeuralNetworksModel_create(&model) != ANEURALNETWORKS_NO_ERROR) return false;
  QuantBuilder b(model, v.isSigned);
  Net net{b, /*perChannel=*/v.isSigned};
  const Tensor input{b.act({1, 224, 224, 3}, kImage), 224, 3, kImage};
  const Tensor features = v.v2 ? mobilenetV2(net, input) : mobilenetV1(net, input);
  const uint32_t output = net.head(features);
  bool ok = b.ok() &&
            ANeuralNetworksModel_identifyInputsAndOutputs(model, 1, &input.id, 1, &output) ==
                ANEURALNETWORKS_NO_ERROR &&
            ANeuralNetworksModel_finish(model) == ANEURALNETWORKS_NO_ERROR;
  ANeuralNetworksCompilation* compilation = nullptr;
  const auto tCompile = Clock::now();
  ok = ok && ANeuralNetworksCompilation_create(model, &compilation) == ANEURALNETWORKS_NO_ERROR &&
       ANeuralNetworksCompilation_setPreference(compilation,
                                                ANEURALNETWORKS_PREFER_FAST_SINGLE_ANSWER) ==
           ANEURALNETWORKS_NO_ERROR &&
       ANeuralNetworksCompilation_finish(compilation) == ANEURALNETWORKS_NO_ERROR;
  const double compileMs = msSince(tCompile);
  std::vector<uint8_t> in(224 * 224 * 3), out(1001), first;
  Rng rng(42);
  for (auto& x : in) x = static_cast<uint8_t>(rng.next());
  ANeuralNetworksExecution* e = nullptr;
  ok = ok && ANeuralNetworksExecution_create(compilation, &e) == ANEURALNETWORKS_NO_ERROR &&
       ANeuralNetworksExecution_setReusable(e, true) == ANEURALNETWORKS_NO_ERROR &&
       ANeuralNetworksExecution_setInput(e, 0, nullptr, in.data(), in.size()) ==
           ANEURALNETWORKS_NO_ERROR &&
       ANeuralNetworksExecution_setOutput(e, 0, nullptr, out.data(), out.size()) ==
           ANEURALNETWORKS_NO_ERROR;
  std::vector<double> lat, cpu;
  bool stable = true;
  if (ok) {
    for (int i = 0; ok && i < std::max(opt.warmup, 1); ++i)
      ok = ANeuralNetworksExecution_compute(e) == ANEURALNETWORKS_NO_ERROR;
    first = out;
    const auto tLoop = Clock::now();
    for (int i = 0; ok && i < opt.runs; ++i) {
      const auto t0 = Clock::now();
      const double c0 = threadCpuMs();
      ok = ANeuralNetworksExecution_compute(e) == ANEURALNETWORKS_NO_ERROR;
      lat.push_back(msSince(t0));
      cpu.push_back(threadCpuMs() - c0);
      stable = stable && out == first;
      if (msSince(tLoop) > opt.maxSeconds * 1000.0) break;
    }
  }
  if (e) ANeuralNetworksExecution_free(e);
  ANeuralNetworksCompilation_free(compilation);
  ANeuralNetworksModel_free(model);
  if (!ok || lat.empty()) {
    fprintf(stderr, "quant MobileNet %s failed to build, compile or run\n", v.name);
    return false;
  }
  if (!stable) fprintf(stderr, "WARNING: quant MobileNet %s outputs differ between runs\n", v.name);
  std::sort(lat.begin(), lat.end());
  const double median = lat[lat.size() / 2];
  const std::string key = std::string("qmobilenet_") + v.name;
  results->emplace_back(key + "_gmacs", net.macs / 1e9);
  results->emplace_back(key + "_compile_ms", compileMs);
  results->emplace_back(key + "_min_ms", lat.front());
  results->emplace_back(key + "_median_ms", median);
  results->emplace_back(key + "_gops_at_median", 2.0 * net.macs / (median * 1e6));
  results->emplace_back(key + "_gops_at_min", 2.0 * net.macs / (lat.front() * 1e6));
  results->emplace_back(key + "_output_argmax",
                        double(std::max_element(out.begin(), out.end()) - out.begin()));
  // The calling thread's CPU time: with one driver thread (NNAPI_CPU_THREADS=1) the whole
  // computation, without the time the thread waited for a core (on a shared, loaded machine).
  results->emplace_back(key + "_min_cpu_ms", *std::min_element(cpu.begin(), cpu.end()));
  // FNV-1a of the output bytes: equal across ISA levels / NNAPI_CPU_AMX (quant8 is exact).
  uint32_t hash = 2166136261u;
  for (uint8_t b : out) hash = (hash ^ b) * 16777619u;
  results->emplace_back(key + "_output_hash", double(hash));
  return true;
}

}  // namespace

bool runQuantMobileNets(const QuantRunOptions& opt,
                        std::vector<std::pair<std::string, double>>* results) {
  const Variant variants[] = {{"v1_u8", false, false},
                              {"v1_s8", false, true},
                              {"v2_u8", true, false},
                              {"v2_s8", true, true}};
  bool ok = true;
  for (const Variant& v : variants) ok = runOne(v, opt, results) && ok;
  return ok;
}

}  // namespace bench
