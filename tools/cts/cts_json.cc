#include "cts_json.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace cts {

const JsonValue* JsonValue::find(std::string_view key) const {
    if (kind_ != Kind::Object) return nullptr;
    for (size_t i = 0; i < keys_.size(); ++i) {
        if (keys_[i] == key) return &items_[i];
    }
    return nullptr;
}

namespace {

// Non-finite floats cannot be JSON numbers, so the converter spells them as strings.
bool nonFiniteFromString(const std::string& s, double* out) {
    if (s == "inf" || s == "+inf" || s == "infinity" || s == "+infinity") {
        *out = std::numeric_limits<double>::infinity();
    } else if (s == "-inf" || s == "-infinity") {
        *out = -std::numeric_limits<double>::infinity();
    } else if (s == "nan" || s == "+nan" || s == "-nan") {
        *out = std::numeric_limits<double>::quiet_NaN();
    } else {
        return false;
    }
    return true;
}

}  // namespace

bool JsonValue::toFloat(float* out) const {
    if (kind_ == Kind::String) {
        double d;
        if (!nonFiniteFromString(text_, &d)) return false;
        *out = static_cast<float>(d);
        return true;
    }
    if (kind_ != Kind::Number) return false;
    // The token was validated by the parser, so strtof consumes all of it.
    // Overflow to +-inf is reported as a failure: the data never relies on it.
    errno = 0;
    float v = std::strtof(text_.c_str(), nullptr);
    if (errno == ERANGE && std::isinf(v)) return false;
    *out = v;
    return true;
}

bool JsonValue::toDouble(double* out) const {
    if (kind_ == Kind::String) return nonFiniteFromString(text_, out);
    if (kind_ != Kind::Number) return false;
    errno = 0;
    double v = std::strtod(text_.c_str(), nullptr);
    if (errno == ERANGE && std::isinf(v)) return false;
    *out = v;
    return true;
}

bool JsonValue::toInt64(int64_t* out) const {
    if (kind_ != Kind::Number) return false;
    if (text_.find_first_of(".eE") != std::string::npos) {
        // Accept integral values written with a fraction/exponent ("2.0", "1e3").
        double d;
        if (!toDouble(&d)) return false;
        if (!(d >= -9.2233720368547758e18 && d < 9.2233720368547758e18) || d != std::floor(d))
            return false;
        *out = static_cast<int64_t>(d);
        return true;
    }
    errno = 0;
    long long v = std::strtoll(text_.c_str(), nullptr, 10);
    if (errno == ERANGE) return false;
    *out = v;
    return true;
}

class JsonParser {
public:
    explicit JsonParser(std::string_view in) : p_(in.data()), begin_(in.data()), end_(in.data() + in.size()) {}

    bool parseDocument(JsonValue* out, std::string* error) {
        skipWs();
        if (!parseValue(out, 0)) return report(error);
        skipWs();
        if (p_ != end_) {
            fail("trailing characters after the document");
            return report(error);
        }
        return true;
    }

private:
    // Deeply nested input must not overflow the stack; the vectors nest < 10 deep.
    static constexpr int kMaxDepth = 512;

    const char* p_;
    const char* begin_;
    const char* end_;
    const char* errAt_ = nullptr;
    std::string err_;

    bool fail(const char* what) {
        if (err_.empty()) {
            err_ = what;
            errAt_ = p_;
        }
        return false;
    }

    bool report(std::string* error) {
        if (error) {
            int line = 1, col = 1;
            const char* at = errAt_ ? errAt_ : p_;
            if (at > end_) at = end_;
            for (const char* q = begin_; q < at; ++q) {
                if (*q == '\n') {
                    ++line;
                    col = 1;
                } else {
                    ++col;
                }
            }
            *error = "line " + std::to_string(line) + " col " + std::to_string(col) + ": " + err_;
        }
        return false;
    }

    void skipWs() {
        while (p_ < end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
    }

    bool literal(const char* word, size_t n) {
        if (static_cast<size_t>(end_ - p_) < n || std::memcmp(p_, word, n) != 0) return fail("invalid literal");
        p_ += n;
        return true;
    }

    bool parseValue(JsonValue* v, int depth) {
        if (p_ >= end_) return fail("unexpected end of input");
        switch (*p_) {
            case '{': return parseObject(v, depth);
            case '[': return parseArray(v, depth);
            case '"':
                v->kind_ = JsonValue::Kind::String;
                return parseString(&v->text_);
            case 't':
                v->kind_ = JsonValue::Kind::Bool;
                v->bool_ = true;
                return literal("true", 4);
            case 'f':
                v->kind_ = JsonValue::Kind::Bool;
                v->bool_ = false;
                return literal("false", 5);
            case 'n':
                v->kind_ = JsonValue::Kind::Null;
                return literal("null", 4);
            default:
                if (*p_ == '-' || (*p_ >= '0' && *p_ <= '9')) return parseNumber(v);
                return fail("unexpected character");
        }
    }

    static bool isDigit(char c) { return c >= '0' && c <= '9'; }

    bool parseNumber(JsonValue* v) {
        const char* start = p_;
        if (p_ < end_ && *p_ == '-') ++p_;
        if (p_ >= end_) return fail("truncated number");
        if (*p_ == '0') {
            ++p_;
        } else if (*p_ >= '1' && *p_ <= '9') {
            while (p_ < end_ && isDigit(*p_)) ++p_;
        } else {
            return fail("invalid number");
        }
        if (p_ < end_ && *p_ == '.') {
            ++p_;
            if (p_ >= end_ || !isDigit(*p_)) return fail("digit expected after decimal point");
            while (p_ < end_ && isDigit(*p_)) ++p_;
        }
        if (p_ < end_ && (*p_ == 'e' || *p_ == 'E')) {
            ++p_;
            if (p_ < end_ && (*p_ == '+' || *p_ == '-')) ++p_;
            if (p_ >= end_ || !isDigit(*p_)) return fail("digit expected in exponent");
            while (p_ < end_ && isDigit(*p_)) ++p_;
        }
        v->kind_ = JsonValue::Kind::Number;
        v->text_.assign(start, p_ - start);
        return true;
    }

    static int hexVal(char c) {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    }

    bool parseHex4(uint32_t* out) {
        if (end_ - p_ < 4) return fail("truncated \\u escape");
        uint32_t v = 0;
        for (int i = 0; i < 4; ++i) {
            int h = hexVal(p_[i]);
            if (h < 0) return fail("invalid \\u escape");
            v = v * 16 + h;
        }
        p_ += 4;
        *out = v;
        return true;
    }

    static void appendUtf8(std::string* s, uint32_t cp) {
        if (cp < 0x80) {
            s->push_back(static_cast<char>(cp));
        } else if (cp < 0x800) {
            s->push_back(static_cast<char>(0xC0 | (cp >> 6)));
            s->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
        } else if (cp < 0x10000) {
            s->push_back(static_cast<char>(0xE0 | (cp >> 12)));
            s->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
            s->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
        } else {
            s->push_back(static_cast<char>(0xF0 | (cp >> 18)));
            s->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
            s->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
            s->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
        }
    }

    bool parseString(std::string* out) {
        ++p_;  // opening quote
        out->clear();
        for (;;) {
            // Copy the run of ordinary characters in one go.
            const char* run = p_;
            while (p_ < end_ && *p_ != '"' && *p_ != '\\' && static_cast<unsigned char>(*p_) >= 0x20) ++p_;
            out->append(run, p_ - run);
            if (p_ >= end_) return fail("unterminated string");
            char c = *p_;
            if (c == '"') {
                ++p_;
                return true;
            }
            if (c != '\\') return fail("control character in string");
            ++p_;
            if (p_ >= end_) return fail("unterminated escape");
            char e = *p_++;
            switch (e) {
                case '"': out->push_back('"'); break;
                case '\\': out->push_back('\\'); break;
                case '/': out->push_back('/'); break;
                case 'b': out->push_back('\b'); break;
                case 'f': out->push_back('\f'); break;
                case 'n': out->push_back('\n'); break;
                case 'r': out->push_back('\r'); break;
                case 't': out->push_back('\t'); break;
                case 'u': {
                    uint32_t cp;
                    if (!parseHex4(&cp)) return false;
                    if (cp >= 0xD800 && cp <= 0xDBFF) {
                        if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') return fail("unpaired surrogate");
                        p_ += 2;
                        uint32_t lo;
                        if (!parseHex4(&lo)) return false;
                        if (lo < 0xDC00 || lo > 0xDFFF) return fail("invalid low surrogate");
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                        return fail("unpaired surrogate");
                    }
                    appendUtf8(out, cp);
                    break;
                }
                default:
                    --p_;
                    return fail("invalid escape");
            }
        }
    }

    bool parseArray(JsonValue* v, int depth) {
        if (depth >= kMaxDepth) return fail("nesting too deep");
        ++p_;
        v->kind_ = JsonValue::Kind::Array;
        skipWs();
        if (p_ < end_ && *p_ == ']') {
            ++p_;
            return true;
        }
        for (;;) {
            skipWs();
            v->items_.emplace_back();
            if (!parseValue(&v->items_.back(), depth + 1)) return false;
            skipWs();
            if (p_ >= end_) return fail("unterminated array");
            if (*p_ == ',') {
                ++p_;
                continue;
            }
            if (*p_ == ']') {
                ++p_;
                return true;
            }
            return fail("expected ',' or ']'");
        }
    }

    bool parseObject(JsonValue* v, int depth) {
        if (depth >= kMaxDepth) return fail("nesting too deep");
        ++p_;
        v->kind_ = JsonValue::Kind::Object;
        skipWs();
        if (p_ < end_ && *p_ == '}') {
            ++p_;
            return true;
        }
        for (;;) {
            skipWs();
            if (p_ >= end_ || *p_ != '"') return fail("expected member name");
            v->keys_.emplace_back();
            if (!parseString(&v->keys_.back())) return false;
            skipWs();
            if (p_ >= end_ || *p_ != ':') return fail("expected ':'");
            ++p_;
            skipWs();
            v->items_.emplace_back();
            if (!parseValue(&v->items_.back(), depth + 1)) return false;
            skipWs();
            if (p_ >= end_) return fail("unterminated object");
            if (*p_ == ',') {
                ++p_;
                continue;
            }
            if (*p_ == '}') {
                ++p_;
                return true;
            }
            return fail("expected ',' or '}'");
        }
    }
};

bool parseJson(std::string_view input, JsonValue* out, std::string* error) {
    *out = JsonValue();
    JsonParser parser(input);
    return parser.parseDocument(out, error);
}

bool readFile(const std::string& path, std::string* out, std::string* error) {
    FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) {
        if (error) *error = path + ": " + std::strerror(errno);
        return false;
    }
    out->clear();
    char buf[1 << 16];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out->append(buf, n);
    bool ok = !std::ferror(f);
    if (!ok && error) *error = path + ": read error";
    std::fclose(f);
    return ok;
}

}  // namespace cts
