// Minimal JSON reader for the conformance vectors (format nnapi-cts-1).
//
// The vectors are tens of megabytes, so the parser builds a plain tree without
// any per-number conversion: numbers keep their source text and are converted
// on demand, because the same token may be needed as a binary32 (strtof, exact
// for the "shortest round-trip" spelling the converter used) or as an integer.
#ifndef NNAPI_TOOLS_CTS_CTS_JSON_H
#define NNAPI_TOOLS_CTS_CTS_JSON_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cts {

class JsonValue {
public:
    enum class Kind : uint8_t { Null, Bool, Number, String, Array, Object };

    Kind kind() const { return kind_; }
    bool isNull() const { return kind_ == Kind::Null; }
    bool isBool() const { return kind_ == Kind::Bool; }
    bool isNumber() const { return kind_ == Kind::Number; }
    bool isString() const { return kind_ == Kind::String; }
    bool isArray() const { return kind_ == Kind::Array; }
    bool isObject() const { return kind_ == Kind::Object; }

    bool boolValue() const { return bool_; }
    // String contents (unescaped) or the raw text of a number token.
    const std::string& text() const { return text_; }

    // Array elements, or object member values (parallel to keys()).
    const std::vector<JsonValue>& items() const { return items_; }
    const std::vector<std::string>& keys() const { return keys_; }
    size_t size() const { return items_.size(); }
    const JsonValue& operator[](size_t i) const { return items_[i]; }

    // Object member lookup; nullptr when absent or when this is not an object.
    const JsonValue* find(std::string_view key) const;

    // Conversions. Each returns false (leaving *out untouched) when the value
    // cannot be represented exactly in the requested type.
    //  - toFloat: a number read with strtof, or one of the strings "inf",
    //    "-inf", "nan" (also "+inf", "infinity", "-infinity").
    //  - toDouble: like toFloat, via strtod.
    //  - toInt64: an integer token (no fraction/exponent) within range.
    bool toFloat(float* out) const;
    bool toDouble(double* out) const;
    bool toInt64(int64_t* out) const;

private:
    friend class JsonParser;
    Kind kind_ = Kind::Null;
    bool bool_ = false;
    std::string text_;
    std::vector<JsonValue> items_;
    std::vector<std::string> keys_;
};

// Parses a complete JSON document (RFC 8259; surrounding whitespace allowed).
// On failure returns false and writes "line L col C: reason" into *error.
bool parseJson(std::string_view input, JsonValue* out, std::string* error);

// Reads a whole file into *out. Returns false with a message on I/O errors.
bool readFile(const std::string& path, std::string* out, std::string* error);

}  // namespace cts

#endif  // NNAPI_TOOLS_CTS_CTS_JSON_H
