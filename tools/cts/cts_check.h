// Pass/fail rules of the conformance runner (FORMAT.md "Checking a test"):
// tolerances, element comparison, the RANDOM_MULTINOMIAL statistics and the
// expected-pass list ("ratchet") helpers. No NNAPI calls happen here.
#ifndef NNAPI_TOOLS_CTS_CTS_CHECK_H
#define NNAPI_TOOLS_CTS_CTS_CHECK_H

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace cts {

struct Tolerance {
    bool supported = false;  // false: the output type cannot be checked (counts as failure)
    bool boolean = false;    // TENSOR_BOOL8: exact truth-value match
    double atol = 0.0;
    double rtol = 0.0;
};

// Tolerance for an output of `type`. `relaxedOrFloat16` is true when the test
// is relaxed or any operand of any of its subgraphs is TENSOR_FLOAT16.
Tolerance toleranceFor(int32_t type, bool relaxedOrFloat16, const std::string& testName);

// Reads element i of a buffer in the layout of `type`, widened exactly to double.
double readElement(int32_t type, const uint8_t* bytes, size_t i);

// Formats a double compactly but without losing the binary32 value ("%.9g").
std::string formatNumber(double v);

struct CheckResult {
    bool ok = true;
    std::string message;  // first mismatch, e.g. "output 0 elem 3: got 1.25 expected 1.5 (tol 1e-05)"
};

// Element-by-element check of `count` elements.
CheckResult compareValues(int32_t type, const Tolerance& tol, const uint8_t* expected, const uint8_t* actual,
                          size_t count, size_t outputIndex);

// Shape check: actual must equal expected exactly (rank and every entry).
CheckResult compareShape(const std::vector<uint32_t>& expected, const std::vector<uint32_t>& actual,
                         size_t outputIndex);

// RANDOM_MULTINOMIAL check: logits [batches, classes] (already as float),
// samples int32 [batches, samplesPerBatch]. Per batch, the observed frequency of
// every class must be within `tolerance` of softmax(logits) computed in float.
CheckResult checkMultinomial(const std::vector<float>& logits, size_t batches, size_t classes,
                             const int32_t* samples, size_t samplesPerBatch, float tolerance,
                             size_t outputIndex);

std::string dimsToString(const std::vector<uint32_t>& dims);

// Expected-pass lists: one test name per line; blank lines and '#' comments ignored.
bool readNameList(const std::string& path, std::set<std::string>* names, std::string* error);
bool writeNameList(const std::string& path, const std::set<std::string>& names, std::string* error);

}  // namespace cts

#endif  // NNAPI_TOOLS_CTS_CTS_CHECK_H
