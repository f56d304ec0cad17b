// The byte format the model-building fuzzer (model_api_fuzzer.cc) reads, shared with its seed
// writer. A fuzz input is a little program of public C API calls; every field is one byte unless
// noted, and reading past the end yields zeros so every byte string is a valid program.
//
//   flags                      bit0 relax, bit1 auto-identify inputs/outputs, bit2 skip finish
//   model                      (below; nested models for IF/WHILE use the same encoding)
//   compile                    byte: 0 Compilation_create, 1.. createForDevices(device (b-1)%n),
//                              then preference byte, priority byte, timeout byte
//   exec                       byte: bits0-1 mode (0 sync, 1 async, 2 burst, 3 sync reusable x2),
//                              bit2 inputs from memory, bit3 output buffers too small,
//                              bit4 give input dims at execution
//   then input data bytes, consumed as execution buffers are filled (cycled; zeros if none)
//
// model:
//   nOperands, then per operand:
//     type   <0xF0: type = b % 16 ; else 4-byte raw int32 type code
//     rank   <0xF0: rank = b % 8  ; else rank 0 with dimensionCount>0 and null dims (invalid)
//     dims   rank bytes: <0xF0: dim = b ; else kHugeDims[b - 0xF0]
//     quant  0: scale 0 zp 0; 1: 4-byte float scale + 4-byte int32 zp; 2: per-channel
//            (channelDim byte, count byte, count floats); else table[b%8] scale, table[b/8%8] zp
//     value  0 none; 1 constant copy; 2 memory (memfd) ; 3 omitted (null,0); 4 wrong length;
//            5 nested model (setOperandValueFromModel); 6 scalar int32 (4 bytes); else none
//            constant/memory data: the operand's byte size (capped) read from the stream
//   nOperations, then per operation:
//     code   <0xF0: b % 106 ; else 4-byte raw int32 code
//     nIn, nIn indices, nOut, nOut indices  (indices are operand numbers, any byte)
//   if !autoIO: nInputs, indices, nOutputs, indices
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace modelfuzz {

constexpr uint32_t kHugeDims[16] = {0xFFFFFFFFu, 0x80000000u, 0x7FFFFFFFu, 0x10000u, 0x100000u,
                                    65537u,      1000000u,    4096u,       1024u,    0x40000000u,
                                    3u,          300u,        255u,        256u,     100000u,
                                    2u};

enum Flag : uint8_t { kRelax = 1, kAutoIO = 2, kSkipFinish = 4 };
enum Value : uint8_t { kNone = 0, kCopy = 1, kMemory = 2, kOmitted = 3, kWrongLength = 4,
                       kNested = 5, kScalarInt = 6 };

// Writer used by the seed generator: builds the same encoding the reader parses.
class Writer {
 public:
  std::vector<uint8_t> bytes;
  void u8(uint32_t v) { bytes.push_back(static_cast<uint8_t>(v)); }
  void i32(int32_t v) { uint8_t b[4]; memcpy(b, &v, 4); bytes.insert(bytes.end(), b, b + 4); }
  void f32(float v) { uint8_t b[4]; memcpy(b, &v, 4); bytes.insert(bytes.end(), b, b + 4); }
  void raw(const void* p, size_t n) {
    const uint8_t* b = static_cast<const uint8_t*>(p);
    bytes.insert(bytes.end(), b, b + n);
  }
  // One operand. `value` bytes follow for kCopy/kMemory; scalar ints use kScalarInt.
  void operand(int32_t type, std::vector<uint32_t> dims, float scale = 0.f, int32_t zp = 0) {
    u8(static_cast<uint32_t>(type));
    u8(static_cast<uint32_t>(dims.size()));
    for (uint32_t d : dims) u8(d);  // seeds use dims < 0xF0
    if (scale == 0.f && zp == 0) {
      u8(0);
    } else {
      u8(1);
      f32(scale);
      i32(zp);
    }
  }
  void noValue() { u8(kNone); }
  void scalarInt(int32_t v) { u8(kScalarInt); i32(v); }
  template <typename T>
  void constant(const std::vector<T>& v, bool memory = false) {
    u8(memory ? kMemory : kCopy);
    raw(v.data(), v.size() * sizeof(T));
  }
  void operation(int32_t code, std::vector<uint32_t> in, std::vector<uint32_t> out) {
    u8(static_cast<uint32_t>(code));
    u8(static_cast<uint32_t>(in.size()));
    for (uint32_t i : in) u8(i);
    u8(static_cast<uint32_t>(out.size()));
    for (uint32_t o : out) u8(o);
  }
  void io(std::vector<uint32_t> in, std::vector<uint32_t> out) {
    u8(static_cast<uint32_t>(in.size()));
    for (uint32_t i : in) u8(i);
    u8(static_cast<uint32_t>(out.size()));
    for (uint32_t o : out) u8(o);
  }
};

}  // namespace modelfuzz
