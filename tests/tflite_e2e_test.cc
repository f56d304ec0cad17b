// TFLite models imported through the public NNAPI C API and executed by the runtime.
#include <android/NeuralNetworks.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <random>
#include <string>

#include "tflite_builder.h"
#include "tflite_importer.h"
#include "tflite_test_util.h"

using namespace nnapi_tflite;

namespace {

// Writes bytes to a temporary file (removed in the destructor) so it can be mapped like a model.
class TempFile {
 public:
  explicit TempFile(const std::vector<uint8_t>& bytes) {
    char tmpl[] = "/tmp/tflite_e2e_XXXXXX";
    int fd = mkstemp(tmpl);
    path_ = tmpl;
    if (fd >= 0) {
      ok_ = write(fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size());
      close(fd);
    }
  }
  ~TempFile() { unlink(path_.c_str()); }
  const std::string& path() const { return path_; }
  bool ok() const { return ok_; }

 private:
  std::string path_;
  bool ok_ = false;
};

ANeuralNetworksDevice* DeviceNamed(const std::string& name) {
  uint32_t n = 0;
  if (ANeuralNetworks_getDeviceCount(&n) != ANEURALNETWORKS_NO_ERROR) return nullptr;
  for (uint32_t i = 0; i < n; ++i) {
    ANeuralNetworksDevice* d = nullptr;
    const char* s = nullptr;
    if (ANeuralNetworks_getDevice(i, &d) == ANEURALNETWORKS_NO_ERROR &&
        ANeuralNetworksDevice_getName(d, &s) == ANEURALNETWORKS_NO_ERROR && s && name == s)
      return d;
  }
  return nullptr;
}

// Compiles (optionally for one device) and runs with float32 inputs; returns float32 outputs.
bool RunModel(const ImportedModel& m, ANeuralNetworksDevice* device, const std::vector<std::vector<float>>& inputs,
         std::vector<std::vector<float>>* outputs) {
  ANeuralNetworksCompilation* c = nullptr;
  int r = device ? ANeuralNetworksCompilation_createForDevices(m.model(), &device, 1, &c)
                 : ANeuralNetworksCompilation_create(m.model(), &c);
  if (r != ANEURALNETWORKS_NO_ERROR) return false;
  bool ok = ANeuralNetworksCompilation_finish(c) == ANEURALNETWORKS_NO_ERROR;
  ANeuralNetworksExecution* e = nullptr;
  ok = ok && ANeuralNetworksExecution_create(c, &e) == ANEURALNETWORKS_NO_ERROR;
  const NnGraph& g = m.graph();
  for (size_t k = 0; ok && k < inputs.size(); ++k) {
    ok = ANeuralNetworksExecution_setInput(e, static_cast<int32_t>(k), nullptr, inputs[k].data(),
                                           inputs[k].size() * sizeof(float)) == ANEURALNETWORKS_NO_ERROR;
  }
  outputs->assign(g.outputs.size(), {});
  for (size_t k = 0; ok && k < g.outputs.size(); ++k) {
    size_t n = 1;
    for (uint32_t d : g.operands[g.outputs[k]].dims) n *= d;
    (*outputs)[k].assign(n, NAN);
    ok = ANeuralNetworksExecution_setOutput(e, static_cast<int32_t>(k), nullptr, (*outputs)[k].data(),
                                            n * sizeof(float)) == ANEURALNETWORKS_NO_ERROR;
  }
  ok = ok && ANeuralNetworksExecution_compute(e) == ANEURALNETWORKS_NO_ERROR;
  if (e) ANeuralNetworksExecution_free(e);
  ANeuralNetworksCompilation_free(c);
  return ok;
}

// Straightforward float reference of TinyConvModel: conv 3x3 SAME + bias + RELU, 2x2/2 max
// pool, flatten, softmax.
std::vector<float> TinyConvReference(const std::vector<float>& in, const std::vector<float>& w,
                                     const std::vector<float>& bias) {
  const int H = 4, W = 4, C = 2, O = 3, K = 3;
  std::vector<float> conv(H * W * O);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x)
      for (int o = 0; o < O; ++o) {
        double acc = bias[o];
        for (int ky = 0; ky < K; ++ky)
          for (int kx = 0; kx < K; ++kx) {
            int iy = y + ky - 1, ix = x + kx - 1;
            if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
            for (int c = 0; c < C; ++c) acc += in[(iy * W + ix) * C + c] * w[((o * K + ky) * K + kx) * C + c];
          }
        conv[(y * W + x) * O + o] = std::max(0.f, static_cast<float>(acc));
      }
  std::vector<float> pooled;
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 2; ++x)
      for (int o = 0; o < O; ++o) {
        float m = -INFINITY;
        for (int dy = 0; dy < 2; ++dy)
          for (int dx = 0; dx < 2; ++dx) m = std::max(m, conv[((2 * y + dy) * W + 2 * x + dx) * O + o]);
        pooled.push_back(m);
      }
  float mx = *std::max_element(pooled.begin(), pooled.end());
  double sum = 0;
  for (float& v : pooled) sum += (v = std::exp(v - mx));
  for (float& v : pooled) v = static_cast<float>(v / sum);
  return pooled;
}

TEST(TfliteE2E, TinyConvModelMatchesReferenceOnEveryDevice) {
  std::vector<float> w, bias;
  TempFile f(tflite_test::TinyConvModel(&w, &bias));
  ASSERT_TRUE(f.ok());
  ModelFile mf;
  std::string err;
  ASSERT_TRUE(mf.Open(f.path(), &err)) << err;
  ImportedModel im;
  ImportReport rep;
  ASSERT_TRUE(ImportModelFile(mf, ImportOptions(), &im, &rep, &err)) << err;
  // The float32 weights and bias reach NNAPI straight from the file mapping.
  EXPECT_EQ(im.graph().file_const_bytes, (w.size() + bias.size()) * sizeof(float));

  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::vector<float> in(32);
  for (float& v : in) v = u(rng);
  std::vector<float> want = TinyConvReference(in, w, bias);

  for (const char* dev : {"", "nnapi-cpu", "nnapi-cpu-reference"}) {
    ANeuralNetworksDevice* d = nullptr;
    if (*dev) {
      d = DeviceNamed(dev);
      if (!d) {
        ADD_FAILURE() << "device " << dev << " not found";
        continue;
      }
    }
    std::vector<std::vector<float>> out;
    ASSERT_TRUE(RunModel(im, d, {in}, &out)) << (*dev ? dev : "default");
    ASSERT_EQ(out.size(), 1u);
    ASSERT_EQ(out[0].size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(out[0][i], want[i], 1e-5f) << dev << " [" << i << "]";
  }
}

TEST(TfliteE2E, FoldedFloat16ConstantsAndSeparateTanh) {
  TfliteBuilder b;
  int32_t in = b.AddFloatTensor({1, 4}, "x");
  TfliteBuilder::TensorSpec h;
  h.shape = {1, 4};
  h.type = TensorType::kFloat16;
  std::vector<uint16_t> half = {0x3c00, 0xc100, 0x3800, 0x0000};  // 1, -2.5, 0.5, 0
  h.buffer = b.AddBuffer(half);
  h.name = "w16";
  int32_t w16 = b.AddTensor(h);
  int32_t w = b.AddFloatTensor({1, 4}, "w");
  b.AddOperator(op::kDequantize, {w16}, {w});
  int32_t y = b.AddFloatTensor({1, 4}, "y");
  b.AddOperator(op::kMul, {in, w}, {y}, opt::kMul, TfliteBuilder::ActivationOptions(Activation::kTanh));
  b.SetInputs({in});
  b.SetOutputs({y});
  TempFile f(b.Finish());
  ModelFile mf;
  std::string err;
  ASSERT_TRUE(mf.Open(f.path(), &err)) << err;
  ImportedModel im;
  ImportReport rep;
  ASSERT_TRUE(ImportModelFile(mf, ImportOptions(), &im, &rep, &err)) << err;
  std::vector<float> x = {0.3f, 0.2f, -4.f, 9.f};
  std::vector<std::vector<float>> out;
  ASSERT_TRUE(RunModel(im, nullptr, {x}, &out));
  const float wv[4] = {1.f, -2.5f, 0.5f, 0.f};
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(out[0][static_cast<size_t>(i)], std::tanh(x[static_cast<size_t>(i)] * wv[i]), 1e-5f);
}

// Test names from model file names: "hand_landmark_lite.tflite" -> hand_landmark_lite.
std::string ModelParamName(const ::testing::TestParamInfo<const char*>& info) {
  const std::string n = info.param;
  return n.substr(0, n.find('.'));
}

// A real model's test without the model file (scripts/fetch_models.sh): skipped, unless
// NNAPI_REQUIRE_MODELS=1 (set by CI, which fetches them) makes it a failure.
void SkipOrFailWithoutModel(const std::string& name, const std::string& path) {
  if (!path.empty()) return;
  const char* require = getenv("NNAPI_REQUIRE_MODELS");
  if (require != nullptr && std::string(require) == "1")
    FAIL() << "models/" << name << " is missing (run scripts/fetch_models.sh)";
  GTEST_SKIP() << "models/" << name << " not fetched";
}

// The two CPU devices (fast kernels vs op-by-op reference kernels) must agree on real models.
// Without the models (scripts/fetch_models.sh) the test is skipped, unless
// NNAPI_REQUIRE_MODELS=1 (set by CI, which fetches them) turns that into a failure.
class RealModel : public ::testing::TestWithParam<const char*> {};

TEST_P(RealModel, FastAndReferenceDevicesAgree) {
  const std::string name = GetParam();
  const std::string path = tflite_test::ModelPath(name);
  SkipOrFailWithoutModel(name, path);
  if (IsSkipped() || HasFatalFailure()) return;
  ModelFile mf;
  std::string err;
  ASSERT_TRUE(mf.Open(path, &err)) << err;
  ImportedModel im;
  ImportReport rep;
  ASSERT_TRUE(ImportModelFile(mf, ImportOptions(), &im, &rep, &err)) << err;
  ASSERT_EQ(rep.unsupported, 0);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::vector<std::vector<float>> inputs;
  for (uint32_t index : im.graph().inputs) {
    size_t n = 1;
    for (uint32_t d : im.graph().operands[index].dims) n *= d;
    std::vector<float> in(n);
    for (float& v : in) v = u(rng);
    inputs.push_back(std::move(in));
  }
  ANeuralNetworksDevice* fast = DeviceNamed("nnapi-cpu");
  ANeuralNetworksDevice* ref = DeviceNamed("nnapi-cpu-reference");
  ASSERT_NE(fast, nullptr);
  ASSERT_NE(ref, nullptr);
  std::vector<std::vector<float>> a, b;
  ASSERT_TRUE(RunModel(im, fast, inputs, &a));
  ASSERT_TRUE(RunModel(im, ref, inputs, &b));
  ASSERT_EQ(a.size(), im.graph().outputs.size());
  ASSERT_EQ(a.size(), b.size());
  for (size_t k = 0; k < a.size(); ++k) {
    ASSERT_EQ(a[k].size(), b[k].size());
    double d2 = 0, r2 = 0;
    for (size_t i = 0; i < a[k].size(); ++i) {
      ASSERT_TRUE(std::isfinite(a[k][i])) << "output " << k << " element " << i;
      d2 += (a[k][i] - b[k][i]) * (a[k][i] - b[k][i]);
      r2 += b[k][i] * b[k][i];
    }
    // Relative L2 error; float reassociation (GEMM blocking, XNNPACK) stays far below this.
    if (r2 > 0) EXPECT_LT(std::sqrt(d2 / r2), 1e-4) << "output " << k;
    else EXPECT_EQ(d2, 0.0) << "output " << k;
  }
}

INSTANTIATE_TEST_SUITE_P(MediaPipe, RealModel,
                         ::testing::Values("face_detection_short_range.tflite",
                                           "face_detection_full_range.tflite",
                                           "hand_landmark_lite.tflite",
                                           "hand_landmark_full.tflite",
                                           "selfie_segmentation.tflite"),
                         ModelParamName);

}  // namespace

// The real models relaxed (relaxComputationFloat32toFloat16, as TFLite's delegate sets
// with allow_fp16) against the same models in float32 on the fast device. Where the processor
// has AVX512-FP16 the relaxed run computes its 1x1 convolutions in float16; the outputs must stay
// within 1e-2 of the float32 run, measured per output as max |relaxed - fp32| / max |fp32| (the
// landmark / box outputs are coordinates whose small elements carry no more absolute precision
// than the large ones). Skipped without the models unless NNAPI_REQUIRE_MODELS=1, as RealModel.
// Not here: pose_landmark_lite and selfie_segmentation, whose outputs move by more than 1e-2
// with float16 whatever the summation (measured on astronaut.png with blocks of 4, 16, 32, 64
// and all k terms summed in float16, i.e. from rounding the inputs alone): pose landmarks x/y
// within 0.7 px of 256 but z (depth) 3% and the segmentation logits 11%, the selfie mask 1.5-6%.
namespace {

class RelaxedRealModel : public ::testing::TestWithParam<const char*> {};

bool CpuHasAvx512Fp16Uncapped() {
  const char* cap = getenv("NNAPI_CPU_ISA");
  if (cap != nullptr && *cap != '\0' && std::string(cap) != "avx512" &&
      std::string(cap) != "avx512fp16")
    return false;
  FILE* f = std::fopen("/proc/cpuinfo", "r");
  if (f == nullptr) return false;
  char line[8192];
  bool found = false;
  while (!found && std::fgets(line, sizeof(line), f) != nullptr)
    found = std::strncmp(line, "flags", 5) == 0 && std::strstr(line, " avx512_fp16") != nullptr;
  std::fclose(f);
  return found;
}

TEST_P(RelaxedRealModel, WithinOnePercentOfFloat32) {
  const std::string name = GetParam();
  const std::string path = tflite_test::ModelPath(name);
  SkipOrFailWithoutModel(name, path);
  if (IsSkipped() || HasFatalFailure()) return;
  ModelFile mf;
  std::string err;
  ASSERT_TRUE(mf.Open(path, &err)) << err;
  ImportedModel exact, relaxed;
  ImportReport rep;
  ASSERT_TRUE(ImportModelFile(mf, ImportOptions(), &exact, &rep, &err)) << err;
  ImportOptions relax;
  relax.relax_float32_to_float16 = true;
  ASSERT_TRUE(ImportModelFile(mf, relax, &relaxed, &rep, &err)) << err;
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::vector<std::vector<float>> inputs;
  for (uint32_t index : exact.graph().inputs) {
    size_t n = 1;
    for (uint32_t d : exact.graph().operands[index].dims) n *= d;
    std::vector<float> in(n);
    for (float& v : in) v = u(rng);
    inputs.push_back(std::move(in));
  }
  ANeuralNetworksDevice* fast = DeviceNamed("nnapi-cpu");
  ASSERT_NE(fast, nullptr);
  std::vector<std::vector<float>> a, b;
  ASSERT_TRUE(RunModel(relaxed, fast, inputs, &a));
  ASSERT_TRUE(RunModel(exact, fast, inputs, &b));
  ASSERT_EQ(a.size(), b.size());
  double worst = 0;
  for (size_t k = 0; k < a.size(); ++k) {
    ASSERT_EQ(a[k].size(), b[k].size());
    double maxDiff = 0, maxRef = 0;
    for (size_t i = 0; i < a[k].size(); ++i) {
      ASSERT_TRUE(std::isfinite(a[k][i])) << "output " << k << " element " << i;
      maxDiff = std::max(maxDiff, std::fabs(static_cast<double>(a[k][i]) - b[k][i]));
      maxRef = std::max(maxRef, std::fabs(static_cast<double>(b[k][i])));
    }
    const double rel = maxRef > 0 ? maxDiff / maxRef : maxDiff;
    worst = std::max(worst, rel);
    EXPECT_LE(rel, 1e-2) << "output " << k << ": max |relaxed - fp32| " << maxDiff
                         << ", max |fp32| " << maxRef;
  }
  std::printf("%s: relaxed vs float32, max |diff| / max |fp32| over the outputs: %.3g\n",
              name.c_str(), worst);
  // With AVX512-FP16 (not capped away) the relaxed model really computes in float16: its
  // results differ from the float32 ones.
  if (CpuHasAvx512Fp16Uncapped()) {
    EXPECT_GT(worst, 0.0) << "relaxed run identical to float32";
  }
}

INSTANTIATE_TEST_SUITE_P(MediaPipe, RelaxedRealModel,
                         ::testing::Values("face_detection_short_range.tflite",
                                           "face_detection_full_range.tflite",
                                           "hand_landmark_lite.tflite",
                                           "hand_landmark_full.tflite"),
                         ModelParamName);

}  // namespace
