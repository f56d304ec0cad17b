#include "image_io.h"

#include <jpeglib.h>
#include <png.h>

#include <algorithm>
#include <cmath>
#include <cerrno>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <memory>

namespace nnapi_cli {
namespace {

// Decoded images are untrusted input: refuse sizes that would need absurd buffers.
constexpr uint64_t kMaxPixels = uint64_t{1} << 28;

bool ReadPng(const std::string& path, Image* out, std::string* error) {
  png_image img;
  std::memset(&img, 0, sizeof(img));
  img.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&img, path.c_str())) {
    *error = path + ": cannot decode PNG: " + img.message;
    return false;
  }
  if (uint64_t{img.width} * img.height > kMaxPixels) {
    png_image_free(&img);
    *error = path + ": PNG of " + std::to_string(img.width) + "x" + std::to_string(img.height) + " pixels is too large";
    return false;
  }
  img.format = PNG_FORMAT_RGB;  // libpng converts grey/palette/alpha/16-bit for us
  out->width = static_cast<int>(img.width);
  out->height = static_cast<int>(img.height);
  out->rgb.assign(PNG_IMAGE_SIZE(img), 0);
  if (!png_image_finish_read(&img, nullptr, out->rgb.data(), 0, nullptr)) {
    *error = path + ": cannot decode PNG: " + img.message;
    png_image_free(&img);
    return false;
  }
  return true;
}

// libjpeg reports fatal errors through error_exit, which must not return: jump back out.
struct JpegError {
  jpeg_error_mgr mgr;
  std::jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
};
void JpegErrorExit(j_common_ptr cinfo) {
  JpegError* e = reinterpret_cast<JpegError*>(cinfo->err);
  (*cinfo->err->format_message)(cinfo, e->message);
  std::longjmp(e->jump, 1);
}
// Warnings (corrupt or truncated data, which libjpeg pads over) are kept, not printed: the
// caller turns them into an error.
void JpegOutputMessage(j_common_ptr cinfo) {
  JpegError* e = reinterpret_cast<JpegError*>(cinfo->err);
  (*cinfo->err->format_message)(cinfo, e->message);
}

// No C++ object with a destructor lives across setjmp here: the buffer is sized before the
// decode loop and only written through a raw pointer.
bool ReadJpeg(FILE* f, const std::string& path, Image* out, std::string* error) {
  jpeg_decompress_struct cinfo;
  JpegError err;
  cinfo.err = jpeg_std_error(&err.mgr);
  err.mgr.error_exit = JpegErrorExit;
  err.mgr.output_message = JpegOutputMessage;
  err.message[0] = 0;
  if (setjmp(err.jump)) {
    jpeg_destroy_decompress(&cinfo);
    *error = path + ": cannot decode JPEG: " + err.message;
    return false;
  }
  jpeg_create_decompress(&cinfo);
  jpeg_stdio_src(&cinfo, f);
  jpeg_read_header(&cinfo, TRUE);
  cinfo.out_color_space = JCS_RGB;
  if (uint64_t{cinfo.image_width} * cinfo.image_height > kMaxPixels) {
    jpeg_destroy_decompress(&cinfo);
    *error = path + ": JPEG is too large";
    return false;
  }
  jpeg_start_decompress(&cinfo);
  if (cinfo.output_components != 3) {
    jpeg_destroy_decompress(&cinfo);
    *error = path + ": JPEG did not decode to RGB";
    return false;
  }
  out->width = static_cast<int>(cinfo.output_width);
  out->height = static_cast<int>(cinfo.output_height);
  out->rgb.assign(size_t{cinfo.output_width} * cinfo.output_height * 3, 0);
  uint8_t* base = out->rgb.data();
  while (cinfo.output_scanline < cinfo.output_height) {
    JSAMPROW row = base + size_t{cinfo.output_scanline} * cinfo.output_width * 3;
    jpeg_read_scanlines(&cinfo, &row, 1);
  }
  jpeg_finish_decompress(&cinfo);
  const long warnings = err.mgr.num_warnings;
  jpeg_destroy_decompress(&cinfo);
  if (warnings > 0) {
    *error = path + ": corrupt JPEG data: " + err.message;
    return false;
  }
  return true;
}

void Blend(Image* im, int x, int y, Rgb c) {
  if (x < 0 || y < 0 || x >= im->width || y >= im->height) return;
  uint8_t* p = &im->rgb[(static_cast<size_t>(y) * im->width + x) * 3];
  p[0] = c.r;
  p[1] = c.g;
  p[2] = c.b;
}

}  // namespace

bool ReadImage(const std::string& path, Image* out, std::string* error) {
  std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) {
    *error = path + ": " + std::strerror(errno);
    return false;
  }
  unsigned char magic[8] = {};
  size_t n = std::fread(magic, 1, sizeof(magic), f.get());
  if (n >= 8 && png_sig_cmp(magic, 0, 8) == 0) return ReadPng(path, out, error);
  if (n >= 3 && magic[0] == 0xFF && magic[1] == 0xD8 && magic[2] == 0xFF) {
    std::rewind(f.get());
    return ReadJpeg(f.get(), path, out, error);
  }
  *error = path + ": not a PNG or JPEG file";
  return false;
}

bool WritePng(const std::string& path, const Image& image, std::string* error) {
  png_image img;
  std::memset(&img, 0, sizeof(img));
  img.version = PNG_IMAGE_VERSION;
  img.width = static_cast<png_uint_32>(image.width);
  img.height = static_cast<png_uint_32>(image.height);
  img.format = PNG_FORMAT_RGB;
  if (!png_image_write_to_file(&img, path.c_str(), 0, image.rgb.data(), 0, nullptr)) {
    *error = path + ": cannot write PNG: " + img.message;
    return false;
  }
  return true;
}

Image ResizeBilinear(const Image& src, int width, int height) {
  Image dst;
  dst.width = width;
  dst.height = height;
  dst.rgb.assign(static_cast<size_t>(width) * height * 3, 0);
  if (src.width <= 0 || src.height <= 0) return dst;
  const float sx = static_cast<float>(src.width) / width, sy = static_cast<float>(src.height) / height;
  for (int y = 0; y < height; ++y) {
    float fy = std::clamp((y + 0.5f) * sy - 0.5f, 0.f, static_cast<float>(src.height - 1));
    int y0 = static_cast<int>(fy), y1 = std::min(y0 + 1, src.height - 1);
    float wy = fy - y0;
    for (int x = 0; x < width; ++x) {
      float fx = std::clamp((x + 0.5f) * sx - 0.5f, 0.f, static_cast<float>(src.width - 1));
      int x0 = static_cast<int>(fx), x1 = std::min(x0 + 1, src.width - 1);
      float wx = fx - x0;
      for (int c = 0; c < 3; ++c) {
        auto at = [&](int xx, int yy) { return static_cast<float>(src.rgb[(static_cast<size_t>(yy) * src.width + xx) * 3 + c]); };
        float top = at(x0, y0) + (at(x1, y0) - at(x0, y0)) * wx;
        float bot = at(x0, y1) + (at(x1, y1) - at(x0, y1)) * wx;
        float v = top + (bot - top) * wy;
        dst.rgb[(static_cast<size_t>(y) * width + x) * 3 + c] = static_cast<uint8_t>(std::clamp(std::lround(v), 0L, 255L));
      }
    }
  }
  return dst;
}

Normalization RangeNormalization(float lo, float hi) {
  Normalization n;
  for (int c = 0; c < 3; ++c) {
    n.std[c] = 255.f / (hi - lo);
    n.mean[c] = -lo * n.std[c];
  }
  return n;
}

std::vector<float> NormalizedPixels(const Image& image, const Normalization& n) {
  std::vector<float> out(image.rgb.size());
  for (size_t i = 0; i < image.rgb.size(); ++i) {
    const size_t c = i % 3;
    out[i] = (static_cast<float>(image.rgb[i]) - n.mean[c]) / n.std[c];
  }
  return out;
}

void DrawDot(Image* image, float cx, float cy, float radius, Rgb color) {
  const int r = static_cast<int>(std::ceil(radius));
  const int x0 = static_cast<int>(std::lround(cx)), y0 = static_cast<int>(std::lround(cy));
  for (int dy = -r; dy <= r; ++dy) {
    for (int dx = -r; dx <= r; ++dx) {
      if (dx * dx + dy * dy <= radius * radius) Blend(image, x0 + dx, y0 + dy, color);
    }
  }
}

// A line as a row of dots, one per pixel step along the longer axis.
void DrawLine(Image* image, float x0, float y0, float x1, float y1, float thickness, Rgb color) {
  const float len = std::max(std::fabs(x1 - x0), std::fabs(y1 - y0));
  const int steps = std::max(1, static_cast<int>(std::ceil(len)));
  for (int i = 0; i <= steps; ++i) {
    const float t = static_cast<float>(i) / steps;
    DrawDot(image, x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, thickness / 2, color);
  }
}

void DrawRect(Image* image, float xmin, float ymin, float xmax, float ymax, float thickness, Rgb color) {
  DrawLine(image, xmin, ymin, xmax, ymin, thickness, color);
  DrawLine(image, xmax, ymin, xmax, ymax, thickness, color);
  DrawLine(image, xmax, ymax, xmin, ymax, thickness, color);
  DrawLine(image, xmin, ymax, xmin, ymin, thickness, color);
}

}  // namespace nnapi_cli
