#include "npy.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

namespace nnapi_tflite {

namespace {

size_t DtypeSize(const std::string& d) {
  if (d.size() < 3) return 0;
  char kind = d[1];
  if (kind != 'f' && kind != 'i' && kind != 'u' && kind != 'b') return 0;
  const std::string n = d.substr(2);
  if (n == "1") return 1;
  if (n == "2") return 2;
  if (n == "4") return 4;
  if (n == "8") return 8;
  return 0;
}

// Finds the value of 'key' in the header dict; returns the text after the colon.
bool FindKey(const std::string& h, const std::string& key, size_t* pos) {
  size_t k = h.find("'" + key + "'");
  if (k == std::string::npos) return false;
  size_t c = h.find(':', k);
  if (c == std::string::npos) return false;
  *pos = c + 1;
  while (*pos < h.size() && h[*pos] == ' ') ++*pos;
  return *pos < h.size();
}

}  // namespace

uint64_t NpyArray::element_count() const {
  uint64_t n = 1;
  for (uint64_t d : shape) n *= d;
  return n;
}

bool ParseNpy(const uint8_t* b, size_t size, NpyArray* out, std::string* error) {
  if (size < 10 || std::memcmp(b, "\x93NUMPY", 6) != 0) {
    *error = "not a .npy file (bad magic)";
    return false;
  }
  uint8_t major = b[6];
  size_t hlen, hstart;
  if (major == 1) {
    hlen = static_cast<size_t>(b[8]) | (static_cast<size_t>(b[9]) << 8);
    hstart = 10;
  } else if (major == 2 || major == 3) {
    if (size < 12) {
      *error = "truncated .npy header";
      return false;
    }
    hlen = static_cast<size_t>(b[8]) | (static_cast<size_t>(b[9]) << 8) | (static_cast<size_t>(b[10]) << 16) |
           (static_cast<size_t>(b[11]) << 24);
    hstart = 12;
  } else {
    *error = "unsupported .npy version " + std::to_string(major);
    return false;
  }
  if (hlen > size - hstart) {
    *error = "truncated .npy header";
    return false;
  }
  std::string h(reinterpret_cast<const char*>(b + hstart), hlen);
  size_t p;
  if (!FindKey(h, "descr", &p) || h[p] != '\'') {
    *error = ".npy header has no descr";
    return false;
  }
  size_t e = h.find('\'', p + 1);
  if (e == std::string::npos) {
    *error = ".npy header: unterminated descr";
    return false;
  }
  out->dtype = h.substr(p + 1, e - p - 1);
  if (out->dtype.size() >= 1 && out->dtype[0] == '>' && DtypeSize(out->dtype) > 1) {
    *error = "big-endian .npy data (" + out->dtype + ") is not supported";
    return false;
  }
  size_t es = DtypeSize(out->dtype);
  if (es == 0) {
    *error = "unsupported .npy dtype '" + out->dtype + "'";
    return false;
  }
  if (!FindKey(h, "fortran_order", &p)) {
    *error = ".npy header has no fortran_order";
    return false;
  }
  if (h.compare(p, 4, "True") == 0) {
    *error = "Fortran-ordered .npy arrays are not supported";
    return false;
  }
  if (!FindKey(h, "shape", &p) || h[p] != '(') {
    *error = ".npy header has no shape";
    return false;
  }
  size_t close = h.find(')', p);
  if (close == std::string::npos) {
    *error = ".npy header: unterminated shape";
    return false;
  }
  out->shape.clear();
  std::string dims = h.substr(p + 1, close - p - 1);
  size_t i = 0;
  while (i < dims.size()) {
    while (i < dims.size() && (dims[i] == ' ' || dims[i] == ',')) ++i;
    if (i >= dims.size()) break;
    if (dims[i] < '0' || dims[i] > '9') {
      *error = ".npy header: bad shape '" + dims + "'";
      return false;
    }
    uint64_t v = 0;
    while (i < dims.size() && dims[i] >= '0' && dims[i] <= '9') {
      v = v * 10 + static_cast<uint64_t>(dims[i] - '0');
      if (v > (uint64_t{1} << 40)) {
        *error = ".npy header: dimension too large";
        return false;
      }
      ++i;
    }
    out->shape.push_back(v);
  }
  uint64_t n = 1;
  for (uint64_t d : out->shape) {
    n *= d;
    if (n > (uint64_t{1} << 40)) {
      *error = ".npy array too large";
      return false;
    }
  }
  size_t data_start = hstart + hlen;
  uint64_t want = n * es;
  if (size - data_start != want) {
    *error = ".npy data holds " + std::to_string(size - data_start) + " bytes, shape needs " + std::to_string(want);
    return false;
  }
  out->data.assign(b + data_start, b + size);
  return true;
}

bool ReadNpyFile(const std::string& path, NpyArray* out, std::string* error) {
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    *error = path + ": " + std::strerror(errno);
    return false;
  }
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (!ParseNpy(bytes.data(), bytes.size(), out, error)) {
    *error = path + ": " + *error;
    return false;
  }
  return true;
}

bool NpyToFloat32(const NpyArray& a, std::vector<float>* out, std::string* error) {
  size_t es = DtypeSize(a.dtype);
  if (es == 0) {
    *error = "unsupported dtype " + a.dtype;
    return false;
  }
  size_t n = a.data.size() / es;
  out->resize(n);
  char kind = a.dtype[1];
  const uint8_t* p = a.data.data();
  for (size_t i = 0; i < n; ++i, p += es) {
    double v = 0;
    if (kind == 'f') {
      if (es == 4) { float f; std::memcpy(&f, p, 4); v = f; }
      else if (es == 8) { double d; std::memcpy(&d, p, 8); v = d; }
      else if (es == 2) {
        uint16_t h; std::memcpy(&h, p, 2);
        uint32_t sign = (h >> 15) & 1, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
        double m = exp == 0 ? mant / 1024.0 * (1.0 / 16384.0)
                   : exp == 31 ? (mant ? NAN : INFINITY)
                               : (1.0 + mant / 1024.0) * std::ldexp(1.0, static_cast<int>(exp) - 15);
        v = sign ? -m : m;
      } else { *error = "unsupported float size"; return false; }
    } else if (kind == 'i') {
      if (es == 1) v = static_cast<int8_t>(*p);
      else if (es == 2) { int16_t x; std::memcpy(&x, p, 2); v = x; }
      else if (es == 4) { int32_t x; std::memcpy(&x, p, 4); v = x; }
      else { int64_t x; std::memcpy(&x, p, 8); v = static_cast<double>(x); }
    } else {  // 'u' or 'b'
      if (es == 1) v = *p;
      else if (es == 2) { uint16_t x; std::memcpy(&x, p, 2); v = x; }
      else if (es == 4) { uint32_t x; std::memcpy(&x, p, 4); v = x; }
      else { uint64_t x; std::memcpy(&x, p, 8); v = static_cast<double>(x); }
    }
    (*out)[i] = static_cast<float>(v);
  }
  return true;
}

std::vector<uint8_t> EncodeNpy(const std::string& dtype, const std::vector<uint64_t>& shape, const void* data,
                               size_t bytes) {
  std::string shp = "(";
  for (size_t i = 0; i < shape.size(); ++i) shp += std::to_string(shape[i]) + (shape.size() == 1 ? "," : i + 1 < shape.size() ? ", " : "");
  shp += ")";
  std::string h = "{'descr': '" + dtype + "', 'fortran_order': False, 'shape': " + shp + ", }";
  // Header padded with spaces so the data starts on a 64-byte boundary, ending in '\n'.
  size_t total = 10 + h.size() + 1;
  size_t pad = (64 - total % 64) % 64;
  h += std::string(pad, ' ') + "\n";
  static const uint8_t kMagic[8] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
  std::vector<uint8_t> out(kMagic, kMagic + 8);
  out.reserve(10 + h.size() + bytes);
  out.push_back(static_cast<uint8_t>(h.size() & 0xff));
  out.push_back(static_cast<uint8_t>(h.size() >> 8));
  out.insert(out.end(), h.begin(), h.end());
  const uint8_t* d = static_cast<const uint8_t*>(data);
  out.insert(out.end(), d, d + bytes);
  return out;
}

bool WriteNpyFile(const std::string& path, const std::string& dtype, const std::vector<uint64_t>& shape,
                  const void* data, size_t bytes, std::string* error) {
  std::vector<uint8_t> enc = EncodeNpy(dtype, shape, data, bytes);
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) {
    *error = path + ": " + std::strerror(errno);
    return false;
  }
  bool ok = std::fwrite(enc.data(), 1, enc.size(), f) == enc.size();
  ok = (std::fclose(f) == 0) && ok;
  if (!ok) *error = path + ": write failed";
  return ok;
}

}  // namespace nnapi_tflite
