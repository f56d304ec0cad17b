// Image input/output for the nnapi CLI: PNG (libpng) and JPEG (libjpeg) decoding to 8-bit RGB,
// bilinear resizing, normalisation to model input values, PNG writing and a little drawing
// (lines, rectangles, dots) for annotated demo outputs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace nnapi_cli {

// 8-bit RGB, row-major, 3 bytes per pixel.
struct Image {
  int width = 0, height = 0;
  std::vector<uint8_t> rgb;
};

// Decodes a PNG or JPEG file (chosen by the file's magic bytes, not its name). Grey, palette
// and alpha images are converted to RGB (alpha is dropped).
bool ReadImage(const std::string& path, Image* out, std::string* error);
bool WritePng(const std::string& path, const Image& image, std::string* error);

// Bilinear resize with half-pixel centres (TensorFlow's align_corners=false, half_pixel_centers
// =true, OpenCV's INTER_LINEAR), edges clamped.
Image ResizeBilinear(const Image& src, int width, int height);

// Per-channel affine map from pixel values p in [0,255] to model values (p - mean) / std.
struct Normalization {
  float mean[3] = {0.f, 0.f, 0.f};
  float std[3] = {255.f, 255.f, 255.f};  // default: [0,1]
};
// --range lo,hi: maps 0 -> lo and 255 -> hi.
Normalization RangeNormalization(float lo, float hi);
// The image's pixels as normalised floats, HWC order (what a [1,H,W,3] NHWC input wants).
std::vector<float> NormalizedPixels(const Image& image, const Normalization& n);

// Drawing, clipped to the image. Coordinates in pixels (floats, rounded).
struct Rgb {
  uint8_t r, g, b;
};
void DrawDot(Image* image, float cx, float cy, float radius, Rgb color);
void DrawLine(Image* image, float x0, float y0, float x1, float y1, float thickness, Rgb color);
void DrawRect(Image* image, float xmin, float ymin, float xmax, float ymax, float thickness, Rgb color);

}  // namespace nnapi_cli
