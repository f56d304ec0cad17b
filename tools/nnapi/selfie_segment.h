// Post-processing for MediaPipe's selfie segmentation (selfie_segmentation.tflite, general
// model): input [1,256,256,3] RGB in [0,1], the photo stretched to 256x256 without keeping the
// aspect ratio (selfie_segmentation_cpu.pbtxt: keep_aspect_ratio false); output [1,256,256,1],
// the person probability per pixel (the model ends in a sigmoid; MediaPipe's
// TensorsToSegmentationCalculator uses activation NONE). The mask is resized back to the photo
// with bilinear interpolation, as that calculator does.
#pragma once

#include <vector>

#include "image_io.h"

namespace nnapi_cli {

// A single-channel float map, row-major.
struct Mask {
  int width = 0, height = 0;
  std::vector<float> values;
  float at(int x, int y) const { return values[static_cast<size_t>(y) * width + x]; }
};

// Bilinear resize with half-pixel centres and clamped edges (as ResizeBilinear for images).
Mask ResizeMask(const Mask& src, int width, int height);

struct MaskSummary {
  double coverage = 0;  // fraction of pixels with value >= threshold
  bool empty = true;    // no such pixel; the box is then meaningless
  int xmin = 0, ymin = 0, xmax = 0, ymax = 0;  // inclusive pixel bounds of those pixels
};
MaskSummary SummarizeMask(const Mask& mask, float threshold);

// Fraction of the pixels of the box [x0,x1) x [y0,y1) (clipped to the mask) at or above
// `threshold`; 0 for an empty box.
double MaskCoverageInBox(const Mask& mask, float threshold, int x0, int y0, int x1, int y1);

// The mask as an 8-bit grey image (0 background .. 255 person), stored in RGB.
Image MaskToImage(const Mask& mask);
// The photo with the background dimmed and the person tinted with `tint`, blended by the mask
// value (soft edges stay soft). Mask and photo must have the same size.
Image OverlayMask(const Image& photo, const Mask& mask, Rgb tint);

}  // namespace nnapi_cli
