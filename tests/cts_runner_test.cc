// Unit tests of the conformance runner's pure logic (tools/cts, nnapi_cts_lib):
// JSON reading, vector decoding and the pass/fail rules of FORMAT.md.
#include <gtest/gtest.h>

#include <android/NeuralNetworksTypes.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <set>
#include <string>
#include <unistd.h>
#include <vector>

#include "cts_check.h"
#include "cts_json.h"
#include "cts_spec.h"

namespace {

using cts::JsonValue;

JsonValue parseOk(const std::string& text) {
    JsonValue v;
    std::string err;
    EXPECT_TRUE(cts::parseJson(text, &v, &err)) << text << ": " << err;
    return v;
}

bool parseFails(const std::string& text) {
    JsonValue v;
    std::string err;
    bool ok = cts::parseJson(text, &v, &err);
    if (!ok) {
        EXPECT_FALSE(err.empty());
    }
    return !ok;
}

uint32_t bitsOf(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

// ---------------------------------------------------------------- JSON

TEST(CtsJson, NestedArraysAndObjects) {
    JsonValue v = parseOk(R"( {"a":[[1,2],[],[[3]]],"b":{"c":null,"d":true,"e":false},"s":"x"} )");
    ASSERT_TRUE(v.isObject());
    const JsonValue* a = v.find("a");
    ASSERT_NE(a, nullptr);
    ASSERT_TRUE(a->isArray());
    ASSERT_EQ(a->size(), 3u);
    EXPECT_EQ((*a)[0].size(), 2u);
    EXPECT_EQ((*a)[1].size(), 0u);
    ASSERT_EQ((*a)[2].size(), 1u);
    ASSERT_EQ((*a)[2][0].size(), 1u);
    int64_t three = 0;
    ASSERT_TRUE((*a)[2][0][0].toInt64(&three));
    EXPECT_EQ(three, 3);
    const JsonValue* b = v.find("b");
    ASSERT_NE(b, nullptr);
    EXPECT_TRUE(b->find("c")->isNull());
    EXPECT_TRUE(b->find("d")->boolValue());
    EXPECT_FALSE(b->find("e")->boolValue());
    EXPECT_EQ(v.find("missing"), nullptr);
    EXPECT_EQ(v.find("s")->text(), "x");
}

TEST(CtsJson, StringEscapes) {
    JsonValue v = parseOk(R"(["a\"b\\c\/d\n\t", "\u00e9", "\ud83d\ude00"])");
    EXPECT_EQ(v[0].text(), "a\"b\\c/d\n\t");
    EXPECT_EQ(v[1].text(), "\xc3\xa9");
    EXPECT_EQ(v[2].text(), "\xf0\x9f\x98\x80");
}

TEST(CtsJson, RejectsMalformedInput) {
    EXPECT_TRUE(parseFails(""));
    EXPECT_TRUE(parseFails("[1,2"));
    EXPECT_TRUE(parseFails("[1,]"));
    EXPECT_TRUE(parseFails("{\"a\":1,}"));
    EXPECT_TRUE(parseFails("{\"a\" 1}"));
    EXPECT_TRUE(parseFails("[01]"));
    EXPECT_TRUE(parseFails("[1.]"));
    EXPECT_TRUE(parseFails("[-]"));
    EXPECT_TRUE(parseFails("[1e]"));
    EXPECT_TRUE(parseFails("[.5]"));
    EXPECT_TRUE(parseFails("[+1]"));
    EXPECT_TRUE(parseFails("\"abc"));
    EXPECT_TRUE(parseFails("\"\\x\""));
    EXPECT_TRUE(parseFails("\"\\ud800\""));
    EXPECT_TRUE(parseFails("[tru]"));
    EXPECT_TRUE(parseFails("[1] 2"));
    EXPECT_TRUE(parseFails("[nan]"));
}

TEST(CtsJson, ErrorMessageHasPosition) {
    JsonValue v;
    std::string err;
    ASSERT_FALSE(cts::parseJson("[1,\n  2,\n  x]", &v, &err));
    EXPECT_NE(err.find("line 3"), std::string::npos) << err;
}

TEST(CtsJson, DeepNestingIsRejectedNotCrashing) {
    std::string deep(100000, '[');
    EXPECT_TRUE(parseFails(deep));
    std::string ok(200, '[');
    ok += std::string(200, ']');
    parseOk(ok);
}

TEST(CtsJson, NegativeZero) {
    JsonValue v = parseOk("[-0.0, 0.0, -0]");
    float f = 1.0f;
    ASSERT_TRUE(v[0].toFloat(&f));
    EXPECT_EQ(f, 0.0f);
    EXPECT_TRUE(std::signbit(f));
    ASSERT_TRUE(v[1].toFloat(&f));
    EXPECT_FALSE(std::signbit(f));
    ASSERT_TRUE(v[2].toFloat(&f));
    EXPECT_TRUE(std::signbit(f));
}

TEST(CtsJson, FloatsAreReadAsBinary32) {
    JsonValue v = parseOk("[0.1, 3.4028235e38, 1e-45, 16777217, 1e39]");
    float f = 0;
    ASSERT_TRUE(v[0].toFloat(&f));
    EXPECT_EQ(bitsOf(f), bitsOf(0.1f));
    EXPECT_NE(static_cast<double>(f), 0.1);  // a double reader would keep 0.1 itself
    ASSERT_TRUE(v[1].toFloat(&f));
    EXPECT_EQ(f, std::numeric_limits<float>::max());
    ASSERT_TRUE(v[2].toFloat(&f));
    EXPECT_EQ(f, std::numeric_limits<float>::denorm_min());
    ASSERT_TRUE(v[3].toFloat(&f));
    EXPECT_EQ(f, 16777216.0f);  // ties to even
    EXPECT_FALSE(v[4].toFloat(&f));  // overflow is an error, not inf
}

TEST(CtsJson, NonFiniteStrings) {
    JsonValue v = parseOk(R"(["inf", "-inf", "nan", "abc", 1])");
    float f = 0;
    ASSERT_TRUE(v[0].toFloat(&f));
    EXPECT_TRUE(std::isinf(f) && f > 0);
    ASSERT_TRUE(v[1].toFloat(&f));
    EXPECT_TRUE(std::isinf(f) && f < 0);
    ASSERT_TRUE(v[2].toFloat(&f));
    EXPECT_TRUE(std::isnan(f));
    EXPECT_FALSE(v[3].toFloat(&f));
    int64_t i = 0;
    EXPECT_FALSE(v[0].toInt64(&i));
}

TEST(CtsJson, Integers) {
    JsonValue v = parseOk("[-2147483648, 4294967295, 2.0, 2.5, 1e3, 99999999999999999999]");
    int64_t i = 0;
    ASSERT_TRUE(v[0].toInt64(&i));
    EXPECT_EQ(i, -2147483648ll);
    ASSERT_TRUE(v[1].toInt64(&i));
    EXPECT_EQ(i, 4294967295ll);
    ASSERT_TRUE(v[2].toInt64(&i));
    EXPECT_EQ(i, 2);
    EXPECT_FALSE(v[3].toInt64(&i));
    ASSERT_TRUE(v[4].toInt64(&i));
    EXPECT_EQ(i, 1000);
    EXPECT_FALSE(v[5].toInt64(&i));
}

// ---------------------------------------------------------------- float16

TEST(CtsHalf, KnownValues) {
    EXPECT_EQ(cts::floatToHalf(1.0f), 0x3C00);
    EXPECT_EQ(cts::floatToHalf(-2.0f), 0xC000);
    EXPECT_EQ(cts::floatToHalf(-0.0f), 0x8000);
    EXPECT_EQ(cts::floatToHalf(65504.0f), 0x7BFF);
    EXPECT_EQ(cts::floatToHalf(65519.0f), 0x7BFF);
    EXPECT_EQ(cts::floatToHalf(65520.0f), 0x7C00);  // halfway to 2^16 rounds to even = inf
    EXPECT_EQ(cts::floatToHalf(std::ldexp(1.0f, -24)), 0x0001);
    EXPECT_EQ(cts::floatToHalf(std::ldexp(1.0f, -25)), 0x0000);  // tie -> even (0)
    EXPECT_EQ(cts::floatToHalf(std::ldexp(3.0f, -25)), 0x0002);  // 1.5 units -> 2
    EXPECT_EQ(cts::floatToHalf(std::ldexp(1.0f, -14)), 0x0400);  // smallest normal
    EXPECT_EQ(cts::floatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3C00);  // tie -> even
    EXPECT_EQ(cts::floatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3C02);
    EXPECT_EQ(cts::floatToHalf(std::numeric_limits<float>::infinity()), 0x7C00);
    EXPECT_TRUE(std::isnan(cts::halfToFloat(cts::floatToHalf(std::nanf("")))));
    EXPECT_EQ(cts::halfToFloat(0x3555), 0.333251953125f);
}

TEST(CtsHalf, EveryHalfRoundTrips) {
    for (uint32_t h = 0; h < 0x10000; ++h) {
        float f = cts::halfToFloat(static_cast<uint16_t>(h));
        if (std::isnan(f)) continue;
        ASSERT_EQ(cts::floatToHalf(f), h) << "half 0x" << std::hex << h;
    }
}

// ---------------------------------------------------------------- tolerances

std::vector<uint8_t> floatBytes(std::initializer_list<float> v) {
    std::vector<uint8_t> b(v.size() * 4);
    std::memcpy(b.data(), v.begin(), b.size());
    return b;
}

bool floatsMatch(float expected, float actual, bool relaxed) {
    auto e = floatBytes({expected});
    auto a = floatBytes({actual});
    cts::Tolerance t = cts::toleranceFor(ANEURALNETWORKS_TENSOR_FLOAT32, relaxed, "t");
    return cts::compareValues(ANEURALNETWORKS_TENSOR_FLOAT32, t, e.data(), a.data(), 1, 0).ok;
}

float ulpsAbove(float x, int n) {
    for (int i = 0; i < n; ++i) x = std::nextafter(x, std::numeric_limits<float>::infinity());
    return x;
}

TEST(CtsTolerance, Float32UsesAtolPlusRtol) {
    cts::Tolerance t = cts::toleranceFor(ANEURALNETWORKS_TENSOR_FLOAT32, false, "t");
    EXPECT_EQ(t.atol, static_cast<double>(1e-5f));
    EXPECT_EQ(t.rtol, 5.0 / 8388608.0);
    // At 1000 one ULP is 2^-14 = 6.1e-5; the limit is 1e-5 + 5.96e-7 * 1000 = 6.06e-4.
    EXPECT_TRUE(floatsMatch(1000.0f, ulpsAbove(1000.0f, 9), false));
    EXPECT_FALSE(floatsMatch(1000.0f, ulpsAbove(1000.0f, 10), false));
    // Near zero only atol matters.
    EXPECT_TRUE(floatsMatch(0.0f, 9.9e-6f, false));
    EXPECT_FALSE(floatsMatch(0.0f, 1.01e-5f, false));
    EXPECT_TRUE(floatsMatch(-0.0f, 0.0f, false));
}

TEST(CtsTolerance, RelaxedAndFloat16) {
    const double h = 5.0 / 1024.0;
    cts::Tolerance r = cts::toleranceFor(ANEURALNETWORKS_TENSOR_FLOAT32, true, "t");
    EXPECT_EQ(r.atol, h);
    EXPECT_EQ(r.rtol, h);
    cts::Tolerance f16 = cts::toleranceFor(ANEURALNETWORKS_TENSOR_FLOAT16, false, "t");
    EXPECT_EQ(f16.atol, h);
    EXPECT_EQ(f16.rtol, h);
    // Limit at 1.0 is 2 * 0.0048828125 = 0.009765625.
    EXPECT_TRUE(floatsMatch(1.0f, 1.0097f, true));
    EXPECT_FALSE(floatsMatch(1.0f, 1.0098f, true));
    EXPECT_FALSE(floatsMatch(1.0f, 1.0097f, false));

    uint16_t e = cts::floatToHalf(2.0f);
    uint16_t ok = cts::floatToHalf(2.0136f);   // limit 0.0048828125 * 3 = 0.0146
    uint16_t bad = cts::floatToHalf(2.0166f);
    EXPECT_TRUE(cts::compareValues(ANEURALNETWORKS_TENSOR_FLOAT16, f16, reinterpret_cast<uint8_t*>(&e),
                                   reinterpret_cast<uint8_t*>(&ok), 1, 0).ok);
    EXPECT_FALSE(cts::compareValues(ANEURALNETWORKS_TENSOR_FLOAT16, f16, reinterpret_cast<uint8_t*>(&e),
                                    reinterpret_cast<uint8_t*>(&bad), 1, 0).ok);
}

TEST(CtsTolerance, NaNAlwaysFails) {
    EXPECT_FALSE(floatsMatch(1.0f, std::nanf(""), true));
    EXPECT_FALSE(floatsMatch(std::nanf(""), std::nanf(""), true));
    EXPECT_FALSE(floatsMatch(1.0f, std::numeric_limits<float>::infinity(), true));
}

TEST(CtsTolerance, IntegerAndQuantizedAllowOneUnit) {
    int32_t e32[] = {100, -5};
    int32_t a32ok[] = {101, -6};
    int32_t a32bad[] = {100, -7};
    cts::Tolerance ti = cts::toleranceFor(ANEURALNETWORKS_TENSOR_INT32, false, "t");
    auto p = [](const void* x) { return static_cast<const uint8_t*>(x); };
    EXPECT_TRUE(cts::compareValues(ANEURALNETWORKS_TENSOR_INT32, ti, p(e32), p(a32ok), 2, 0).ok);
    cts::CheckResult r = cts::compareValues(ANEURALNETWORKS_TENSOR_INT32, ti, p(e32), p(a32bad), 2, 0);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.message.find("elem 1"), std::string::npos) << r.message;

    uint8_t eq[] = {255, 0};
    uint8_t aq[] = {254, 1};
    uint8_t aqBad[] = {253, 0};
    cts::Tolerance tq = cts::toleranceFor(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, false, "conv");
    EXPECT_TRUE(cts::compareValues(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, tq, eq, aq, 2, 0).ok);
    EXPECT_FALSE(cts::compareValues(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, tq, eq, aqBad, 2, 0).ok);
    // Signed types compare raw int8 values: -128 vs 127 is far apart, not 1 apart.
    uint8_t es[] = {0x80};
    uint8_t as[] = {0x7F};
    uint8_t asOk[] = {0x81};
    cts::Tolerance ts = cts::toleranceFor(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED, false, "t");
    EXPECT_FALSE(cts::compareValues(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED, ts, es, as, 1, 0).ok);
    EXPECT_TRUE(cts::compareValues(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED, ts, es, asOk, 1, 0).ok);
    EXPECT_EQ(cts::toleranceFor(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, false, "mobilenet_quantized").atol, 3.0);
    EXPECT_EQ(cts::toleranceFor(ANEURALNETWORKS_TENSOR_QUANT16_SYMM, false, "t").atol, 1.0);
}

TEST(CtsTolerance, Bool8ComparesTruthValues) {
    cts::Tolerance t = cts::toleranceFor(ANEURALNETWORKS_TENSOR_BOOL8, false, "t");
    uint8_t e[] = {1, 0, 1};
    uint8_t a[] = {7, 0, 1};
    uint8_t bad[] = {1, 1, 1};
    EXPECT_TRUE(cts::compareValues(ANEURALNETWORKS_TENSOR_BOOL8, t, e, a, 3, 0).ok);
    cts::CheckResult r = cts::compareValues(ANEURALNETWORKS_TENSOR_BOOL8, t, e, bad, 3, 2);
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.message, "output 2 elem 1: got true expected false");
}

TEST(CtsTolerance, UnsupportedOutputTypeFails) {
    cts::Tolerance t = cts::toleranceFor(ANEURALNETWORKS_FLOAT32, false, "t");
    EXPECT_FALSE(t.supported);
    auto e = floatBytes({1.0f});
    EXPECT_FALSE(cts::compareValues(ANEURALNETWORKS_FLOAT32, t, e.data(), e.data(), 1, 0).ok);
}

TEST(CtsTolerance, MismatchMessageFormat) {
    auto e = floatBytes({1.0f, 2.0f, 3.0f, 1.5f});
    auto a = floatBytes({1.0f, 2.0f, 3.0f, 1.25f});
    cts::Tolerance t = cts::toleranceFor(ANEURALNETWORKS_TENSOR_FLOAT32, false, "t");
    cts::CheckResult r = cts::compareValues(ANEURALNETWORKS_TENSOR_FLOAT32, t, e.data(), a.data(), 4, 0);
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.message.rfind("output 0 elem 3: got 1.25 expected 1.5 (tol 1.0", 0), 0u) << r.message;
    // Only the first N elements are compared.
    EXPECT_TRUE(cts::compareValues(ANEURALNETWORKS_TENSOR_FLOAT32, t, e.data(), a.data(), 3, 0).ok);
}

TEST(CtsShape, MustMatchExactly) {
    EXPECT_TRUE(cts::compareShape({2, 3}, {2, 3}, 0).ok);
    EXPECT_FALSE(cts::compareShape({2, 3}, {2, 4}, 0).ok);
    EXPECT_FALSE(cts::compareShape({2, 3}, {2, 3, 1}, 0).ok);
    EXPECT_FALSE(cts::compareShape({0, 3}, {1, 3}, 0).ok);
    EXPECT_TRUE(cts::compareShape({}, {}, 0).ok);
    EXPECT_EQ(cts::compareShape({2}, {3}, 1).message, "output 1 shape: got [3] expected [2]");
}

// ---------------------------------------------------------------- multinomial

TEST(CtsMultinomial, FrequenciesAgainstSoftmax) {
    // Logits log(1), log(3): probabilities 0.25 / 0.75.
    std::vector<float> logits = {0.0f, std::log(3.0f)};
    std::vector<int32_t> good(100);
    for (int i = 0; i < 100; ++i) good[i] = i < 26 ? 0 : 1;  // 0.26 / 0.74
    EXPECT_TRUE(cts::checkMultinomial(logits, 1, 2, good.data(), 100, 0.025f, 0).ok);
    std::vector<int32_t> bad(100);
    for (int i = 0; i < 100; ++i) bad[i] = i < 30 ? 0 : 1;  // 0.30 / 0.70
    EXPECT_FALSE(cts::checkMultinomial(logits, 1, 2, bad.data(), 100, 0.025f, 0).ok);
    std::vector<int32_t> outOfRange(100, 2);
    EXPECT_FALSE(cts::checkMultinomial(logits, 1, 2, outOfRange.data(), 100, 0.025f, 0).ok);
}

// ---------------------------------------------------------------- vector decoding

const char* kSpec = R"({"format":"nnapi-cts-1","version":"V1_2","spec":"s","tests":[
 {"name":"t0","minSupportedVersion":"V1_2","isRelaxed":true,"expectFailure":false,"multinomialTolerance":0.0,
  "main":{"operands":[
   {"type":"TENSOR_FLOAT16","dimensions":[2],"numberOfConsumers":1,"scale":0.0,"zeroPoint":0,"lifetime":"SUBGRAPH_INPUT","channelQuant":null,"isIgnored":false,"data":[1.0,-0.0]},
   {"type":"TENSOR_QUANT8_SYMM_PER_CHANNEL","dimensions":[2,1],"numberOfConsumers":1,"scale":0.0,"zeroPoint":0,"lifetime":"CONSTANT_REFERENCE","channelQuant":{"scales":[0.5,0.25],"channelDim":0},"isIgnored":false,"data":[-128,127]},
   {"type":"SUBGRAPH","dimensions":[],"numberOfConsumers":1,"scale":0.0,"zeroPoint":0,"lifetime":"SUBGRAPH","channelQuant":null,"isIgnored":false,"data":[0]},
   {"type":"TENSOR_INT32","dimensions":[2],"numberOfConsumers":0,"scale":0.0,"zeroPoint":0,"lifetime":"SUBGRAPH_OUTPUT","channelQuant":null,"isIgnored":true,"data":[-1,65536]}],
   "operations":[{"type":"DENSIFY","inputs":[0,1,2],"outputs":[3]}],"inputIndexes":[0],"outputIndexes":[3]},
  "referenced":[{"operands":[],"operations":[],"inputIndexes":[],"outputIndexes":[]}]},
 {"name":"t1","minSupportedVersion":"UNKNOWN","isRelaxed":false,"expectFailure":true,"multinomialTolerance":0.0,
  "main":{"operands":[{"type":"TENSOR_QUANT8_ASYMM","dimensions":[1],"numberOfConsumers":0,"scale":1.0,"zeroPoint":0,"lifetime":"SUBGRAPH_INPUT","channelQuant":null,"isIgnored":false,"data":[256]}],
  "operations":[{"type":"NOT_AN_OP","inputs":[],"outputs":[]}],"inputIndexes":[0],"outputIndexes":[]},"referenced":[]}
]})";

TEST(CtsSpec, DecodesOperandsIntoNnapiLayout) {
    JsonValue doc = parseOk(kSpec);
    cts::SpecFile spec;
    std::string err;
    ASSERT_TRUE(cts::loadSpec(doc, &spec, &err)) << err;
    EXPECT_EQ(spec.version, "V1_2");
    ASSERT_EQ(spec.tests.size(), 2u);
    const cts::Test& t = spec.tests[0];
    EXPECT_TRUE(t.loadError.empty()) << t.loadError;
    EXPECT_TRUE(t.isRelaxed);
    EXPECT_TRUE(cts::testUsesFloat16(t));
    EXPECT_TRUE(cts::testUsesOperation(t, {cts::kOperationDensify}));
    EXPECT_FALSE(cts::testUsesOperation(t, {ANEURALNETWORKS_IF}));
    ASSERT_EQ(t.main.operands.size(), 4u);

    const cts::Operand& f16 = t.main.operands[0];
    EXPECT_EQ(f16.type, ANEURALNETWORKS_TENSOR_FLOAT16);
    ASSERT_EQ(f16.bytes.size(), 4u);
    uint16_t h[2];
    std::memcpy(h, f16.bytes.data(), 4);
    EXPECT_EQ(h[0], 0x3C00);
    EXPECT_EQ(h[1], 0x8000);

    const cts::Operand& pc = t.main.operands[1];
    EXPECT_EQ(pc.lifetime, cts::Lifetime::ConstantReference);
    EXPECT_TRUE(pc.hasChannelQuant);
    EXPECT_EQ(pc.channelDim, 0u);
    EXPECT_EQ(pc.channelScales, (std::vector<float>{0.5f, 0.25f}));
    EXPECT_EQ(pc.bytes, (std::vector<uint8_t>{0x80, 0x7F}));

    const cts::Operand& sg = t.main.operands[2];
    EXPECT_EQ(sg.type, ANEURALNETWORKS_MODEL);
    EXPECT_EQ(sg.lifetime, cts::Lifetime::Subgraph);
    EXPECT_EQ(sg.subgraphIndex, 0u);
    EXPECT_TRUE(sg.bytes.empty());

    const cts::Operand& out = t.main.operands[3];
    EXPECT_TRUE(out.isIgnored);
    int32_t ints[2];
    ASSERT_EQ(out.bytes.size(), 8u);
    std::memcpy(ints, out.bytes.data(), 8);
    EXPECT_EQ(ints[0], -1);
    EXPECT_EQ(ints[1], 65536);
    EXPECT_EQ(t.main.operations[0].type, cts::kOperationDensify);

    // Out-of-range quant8 data and unknown operations fail only that test.
    EXPECT_FALSE(spec.tests[1].loadError.empty());
    EXPECT_EQ(spec.tests[1].name, "t1");
}

TEST(CtsSpec, RejectsForeignDocuments) {
    cts::SpecFile spec;
    std::string err;
    EXPECT_FALSE(cts::loadSpec(parseOk(R"({"format":"other","version":"V1_0","tests":[]})"), &spec, &err));
    EXPECT_FALSE(cts::loadSpec(parseOk("[]"), &spec, &err));
}

TEST(CtsSpec, NameTablesAndVersions) {
    EXPECT_EQ(cts::operationTypeFromName("ADD"), ANEURALNETWORKS_ADD);
    EXPECT_EQ(cts::operationTypeFromName("RESIZE_NEAREST_NEIGHBOR"), ANEURALNETWORKS_RESIZE_NEAREST_NEIGHBOR);
    EXPECT_EQ(cts::operationTypeFromName("QUANTIZED_LSTM"), ANEURALNETWORKS_QUANTIZED_LSTM);
    EXPECT_EQ(cts::operationTypeFromName("REVERSE"), ANEURALNETWORKS_REVERSE);
    EXPECT_EQ(cts::operationTypeFromName("DENSIFY"), cts::kOperationDensify);
    EXPECT_EQ(cts::operationTypeFromName("add"), -1);
    EXPECT_EQ(cts::operationTypeFromName(""), -1);
    EXPECT_EQ(cts::operandTypeFromName("TENSOR_QUANT8_ASYMM_SIGNED"), ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED);
    EXPECT_EQ(cts::operandTypeFromName("SUBGRAPH"), ANEURALNETWORKS_MODEL);
    EXPECT_EQ(cts::featureLevelOfVersion("V1_0"), 27);
    EXPECT_EQ(cts::featureLevelOfVersion("V1_3"), 30);
    EXPECT_EQ(cts::featureLevelOfVersion("AIDL_V2"), 1000006);
    EXPECT_EQ(cts::featureLevelOfVersion("AIDL_V3"), 1000007);
    EXPECT_EQ(cts::featureLevelOfVersion("UNKNOWN"), 0);
    EXPECT_EQ(cts::featureLevelOfVersion("V9"), -1);
}

TEST(CtsNameList, RoundTripSortedWithComments) {
    char path[] = "/tmp/cts_names_XXXXXX";
    int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    const char text[] = "# comment\nzeta\n\n  alpha \r\nmid\n";
    ASSERT_EQ(write(fd, text, sizeof text - 1), static_cast<ssize_t>(sizeof text - 1));
    close(fd);
    std::set<std::string> names;
    std::string err;
    ASSERT_TRUE(cts::readNameList(path, &names, &err)) << err;
    EXPECT_EQ(names, (std::set<std::string>{"alpha", "mid", "zeta"}));
    names.insert("beta");
    ASSERT_TRUE(cts::writeNameList(path, names, &err)) << err;
    std::set<std::string> again;
    ASSERT_TRUE(cts::readNameList(path, &again, &err));
    EXPECT_EQ(again, names);
    std::remove(path);
    EXPECT_FALSE(cts::readNameList(path, &again, &err));
}

}  // namespace
