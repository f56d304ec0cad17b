#include "cts_check.h"

#include <android/NeuralNetworksTypes.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "cts_spec.h"

namespace cts {

namespace {

// The AOSP harness stores its float tolerances as binary32 constants.
constexpr float kFloat32Atol = 1e-5f;
constexpr double kFloat32Rtol = 5.0 / 8388608.0;  // 5 ULP of binary32 = 5 * 2^-23
constexpr double kFloat16Tol = 5.0 / 1024.0;      // 5 * 2^-10

template <typename T>
T load(const uint8_t* p, size_t i) {
    T v;
    std::memcpy(&v, p + i * sizeof(T), sizeof(T));
    return v;
}

}  // namespace

Tolerance toleranceFor(int32_t type, bool relaxedOrFloat16, const std::string& testName) {
    Tolerance t;
    switch (type) {
        case ANEURALNETWORKS_TENSOR_FLOAT32:
            t.supported = true;
            if (relaxedOrFloat16) {
                t.atol = kFloat16Tol;
                t.rtol = kFloat16Tol;
            } else {
                t.atol = static_cast<double>(kFloat32Atol);
                t.rtol = kFloat32Rtol;
            }
            break;
        case ANEURALNETWORKS_TENSOR_FLOAT16:
            t.supported = true;
            t.atol = kFloat16Tol;
            t.rtol = kFloat16Tol;
            break;
        case ANEURALNETWORKS_TENSOR_INT32:
        case ANEURALNETWORKS_INT32:
        case ANEURALNETWORKS_TENSOR_QUANT16_ASYMM:
        case ANEURALNETWORKS_TENSOR_QUANT16_SYMM:
            t.supported = true;
            t.atol = 1.0;
            break;
        case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM:
        case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED:
        case ANEURALNETWORKS_TENSOR_QUANT8_SYMM:
            t.supported = true;
            t.atol = testName.find("mobilenet") != std::string::npos ? 3.0 : 1.0;
            break;
        case ANEURALNETWORKS_TENSOR_BOOL8:
            t.supported = true;
            t.boolean = true;
            break;
        default:
            break;
    }
    return t;
}

double readElement(int32_t type, const uint8_t* bytes, size_t i) {
    switch (type) {
        case ANEURALNETWORKS_FLOAT32:
        case ANEURALNETWORKS_TENSOR_FLOAT32: return load<float>(bytes, i);
        case ANEURALNETWORKS_FLOAT16:
        case ANEURALNETWORKS_TENSOR_FLOAT16: return halfToFloat(load<uint16_t>(bytes, i));
        case ANEURALNETWORKS_INT32:
        case ANEURALNETWORKS_TENSOR_INT32: return load<int32_t>(bytes, i);
        case ANEURALNETWORKS_UINT32: return load<uint32_t>(bytes, i);
        case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM:
        case ANEURALNETWORKS_BOOL:
        case ANEURALNETWORKS_TENSOR_BOOL8: return bytes[i];
        case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED:
        case ANEURALNETWORKS_TENSOR_QUANT8_SYMM:
        case ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL: return static_cast<int8_t>(bytes[i]);
        case ANEURALNETWORKS_TENSOR_QUANT16_ASYMM: return load<uint16_t>(bytes, i);
        case ANEURALNETWORKS_TENSOR_QUANT16_SYMM: return load<int16_t>(bytes, i);
        default: return std::nan("");
    }
}

std::string formatNumber(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

std::string dimsToString(const std::vector<uint32_t>& dims) {
    std::string s = "[";
    for (size_t i = 0; i < dims.size(); ++i) {
        if (i) s += ",";
        s += std::to_string(dims[i]);
    }
    return s + "]";
}

CheckResult compareValues(int32_t type, const Tolerance& tol, const uint8_t* expected, const uint8_t* actual,
                          size_t count, size_t outputIndex) {
    CheckResult r;
    std::string prefix = "output " + std::to_string(outputIndex);
    if (!tol.supported) {
        r.ok = false;
        r.message = prefix + ": output type " + operandTypeName(type) + " is not supported by the checker";
        return r;
    }
    for (size_t i = 0; i < count; ++i) {
        if (tol.boolean) {
            bool e = expected[i] != 0, a = actual[i] != 0;
            if (e != a) {
                r.ok = false;
                r.message = prefix + " elem " + std::to_string(i) + ": got " + (a ? "true" : "false") +
                            " expected " + (e ? "true" : "false");
                return r;
            }
            continue;
        }
        double e = readElement(type, expected, i);
        double a = readElement(type, actual, i);
        double limit = tol.atol + tol.rtol * std::fabs(e);
        // Written so that any NaN (actual or expected) fails the element.
        if (!(std::fabs(a - e) <= limit)) {
            r.ok = false;
            r.message = prefix + " elem " + std::to_string(i) + ": got " + formatNumber(a) + " expected " +
                        formatNumber(e) + " (tol " + formatNumber(limit) + ")";
            return r;
        }
    }
    return r;
}

CheckResult compareShape(const std::vector<uint32_t>& expected, const std::vector<uint32_t>& actual,
                         size_t outputIndex) {
    CheckResult r;
    if (expected != actual) {
        r.ok = false;
        r.message = "output " + std::to_string(outputIndex) + " shape: got " + dimsToString(actual) + " expected " +
                    dimsToString(expected);
    }
    return r;
}

CheckResult checkMultinomial(const std::vector<float>& logits, size_t batches, size_t classes,
                             const int32_t* samples, size_t samplesPerBatch, float tolerance,
                             size_t outputIndex) {
    CheckResult r;
    std::string prefix = "output " + std::to_string(outputIndex);
    if (logits.size() < batches * classes || samplesPerBatch == 0) {
        r.ok = false;
        r.message = prefix + ": multinomial check needs [batches, classes] logits and a non-empty sample set";
        return r;
    }
    std::vector<size_t> counts(classes);
    for (size_t b = 0; b < batches; ++b) {
        std::fill(counts.begin(), counts.end(), 0);
        for (size_t s = 0; s < samplesPerBatch; ++s) {
            int32_t c = samples[b * samplesPerBatch + s];
            if (c < 0 || static_cast<size_t>(c) >= classes) {
                r.ok = false;
                r.message = prefix + " elem " + std::to_string(b * samplesPerBatch + s) + ": class index " +
                            std::to_string(c) + " out of range [0," + std::to_string(classes) + ")";
                return r;
            }
            ++counts[c];
        }
        const float* x = logits.data() + b * classes;
        float sum = 0.0f;
        for (size_t c = 0; c < classes; ++c) sum += std::exp(x[c]);
        for (size_t c = 0; c < classes; ++c) {
            float expectedP = std::exp(x[c]) / sum;
            float observedP = static_cast<float>(counts[c]) / static_cast<float>(samplesPerBatch);
            if (!(std::fabs(observedP - expectedP) <= tolerance)) {
                r.ok = false;
                r.message = prefix + " batch " + std::to_string(b) + " class " + std::to_string(c) +
                            ": observed frequency " + formatNumber(observedP) + " expected " +
                            formatNumber(expectedP) + " (tol " + formatNumber(tolerance) + ")";
                return r;
            }
        }
    }
    return r;
}

bool readNameList(const std::string& path, std::set<std::string>* names, std::string* error) {
    std::ifstream in(path);
    if (!in) {
        if (error) *error = path + ": " + std::strerror(errno);
        return false;
    }
    std::string line;
    while (std::getline(in, line)) {
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.pop_back();
        size_t start = line.find_first_not_of(" \t");
        if (start == std::string::npos || line[start] == '#') continue;
        names->insert(line.substr(start));
    }
    return true;
}

bool writeNameList(const std::string& path, const std::set<std::string>& names, std::string* error) {
    std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::trunc);
        if (!out) {
            if (error) *error = tmp + ": " + std::strerror(errno);
            return false;
        }
        for (const std::string& n : names) out << n << '\n';
        if (!out.good()) {
            if (error) *error = tmp + ": write failed";
            return false;
        }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        if (error) *error = path + ": " + std::strerror(errno);
        return false;
    }
    return true;
}

}  // namespace cts
