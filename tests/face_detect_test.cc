// The nnapi CLI's image helpers and BlazeFace post-processing (tools/nnapi/face_detect.*,
// image_io.*): anchor layout, box/keypoint decoding, score clipping, weighted NMS, bilinear
// resizing, normalisation and a PNG round trip. The end-to-end check on a real photograph is
// the ctest face_demo.
#include <gtest/gtest.h>
#include <jpeglib.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include <cmath>
#include <string>
#include <vector>

#include "face_detect.h"
#include "image_io.h"

using namespace nnapi_cli;

TEST(FaceDetect, ShortRangeAnchors) {
  const std::vector<Anchor> a = BlazeFaceShortRangeAnchors();
  ASSERT_EQ(a.size(), 896u);
  // Stride 8: 16x16 grid, 2 per cell; stride 16: 8x8 grid, 6 per cell.
  EXPECT_FLOAT_EQ(a[0].x_center, 0.5f / 16);
  EXPECT_FLOAT_EQ(a[1].x_center, 0.5f / 16);
  EXPECT_FLOAT_EQ(a[2].x_center, 1.5f / 16);
  EXPECT_FLOAT_EQ(a[32].y_center, 1.5f / 16);  // second row
  EXPECT_FLOAT_EQ(a[511].x_center, 15.5f / 16);
  EXPECT_FLOAT_EQ(a[512].x_center, 0.5f / 8);
  EXPECT_FLOAT_EQ(a[517].x_center, 0.5f / 8);
  EXPECT_FLOAT_EQ(a[518].x_center, 1.5f / 8);
  EXPECT_FLOAT_EQ(a[895].y_center, 7.5f / 8);
  for (const Anchor& x : a) EXPECT_EQ(x.w, 1.f);
}

TEST(FaceDetect, DecodeScalesByInputSizeAndThresholds) {
  std::vector<Anchor> anchors = {{0.25f, 0.5f, 1, 1}, {0.75f, 0.5f, 1, 1}};
  std::vector<float> reg(32, 0.f);
  reg[0] = 12.8f;   // x centre +0.1
  reg[1] = -6.4f;   // y centre -0.05
  reg[2] = 32.f;    // w 0.25
  reg[3] = 64.f;    // h 0.5
  reg[4] = 1.28f;   // keypoint 0 x +0.01
  const float scores[2] = {1000.f, -1.f};  // 1000 is clipped to 100; sigmoid(-1) < 0.5
  BlazeFaceParams p;
  std::vector<FaceDetection> d = DecodeBlazeFace(reg.data(), scores, anchors, p);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_FLOAT_EQ(d[0].score, 1.f / (1.f + std::exp(-100.f)));
  EXPECT_NEAR(d[0].xmin, 0.35f - 0.125f, 1e-6);
  EXPECT_NEAR(d[0].xmax, 0.35f + 0.125f, 1e-6);
  EXPECT_NEAR(d[0].ymin, 0.45f - 0.25f, 1e-6);
  EXPECT_NEAR(d[0].ymax, 0.45f + 0.25f, 1e-6);
  EXPECT_NEAR(d[0].keypoints[0][0], 0.26f, 1e-6);
  EXPECT_NEAR(d[0].keypoints[0][1], 0.5f, 1e-6);
}

TEST(FaceDetect, WeightedNmsAveragesOverlapsKeepsSeparateFaces) {
  auto box = [](float score, float x0, float y0, float x1, float y1) {
    FaceDetection f;
    f.score = score;
    f.xmin = x0, f.ymin = y0, f.xmax = x1, f.ymax = y1;
    f.keypoints[0][0] = x0;
    return f;
  };
  // Two overlapping boxes (IoU 0.6) and one far away.
  std::vector<FaceDetection> in = {box(0.6f, 0.1f, 0, 0.6f, 0.5f), box(0.9f, 0, 0, 0.5f, 0.5f),
                                   box(0.7f, 0.8f, 0.8f, 0.9f, 0.9f)};
  std::vector<FaceDetection> out = WeightedNonMaxSuppression(in, 0.3f);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_FLOAT_EQ(out[0].score, 0.9f);  // the top score, not an average
  EXPECT_NEAR(out[0].xmin, (0.9f * 0 + 0.6f * 0.1f) / 1.5f, 1e-6);
  EXPECT_NEAR(out[0].xmax, (0.9f * 0.5f + 0.6f * 0.6f) / 1.5f, 1e-6);
  EXPECT_NEAR(out[0].keypoints[0][0], out[0].xmin, 1e-6);
  EXPECT_FLOAT_EQ(out[1].score, 0.7f);
  EXPECT_FLOAT_EQ(out[1].xmin, 0.8f);
  // Below the threshold the two overlapping boxes stay separate.
  EXPECT_EQ(WeightedNonMaxSuppression(in, 0.7f).size(), 3u);
}

TEST(ImageIo, BilinearHalfPixelCentres) {
  Image src;
  src.width = 2;
  src.height = 1;
  src.rgb = {0, 0, 0, 200, 100, 40};
  Image dst = ResizeBilinear(src, 4, 1);
  // Output x centres map to source x = -0.25 (clamped 0), 0.25, 0.75, 1.25 (clamped 1).
  const int r[4] = {0, 50, 150, 200};
  for (int x = 0; x < 4; ++x) EXPECT_EQ(dst.rgb[3 * x], r[x]) << x;
  EXPECT_EQ(dst.rgb[3 * 1 + 1], 25);
}

TEST(ImageIo, Normalization) {
  Image im;
  im.width = 1;
  im.height = 1;
  im.rgb = {0, 255, 51};
  std::vector<float> v = NormalizedPixels(im, RangeNormalization(-1.f, 1.f));
  EXPECT_FLOAT_EQ(v[0], -1.f);
  EXPECT_FLOAT_EQ(v[1], 1.f);
  EXPECT_NEAR(v[2], -0.6f, 1e-6);
  Normalization n;
  n.mean[0] = n.mean[1] = n.mean[2] = 127.5f;
  n.std[0] = n.std[1] = n.std[2] = 127.5f;
  EXPECT_FLOAT_EQ(NormalizedPixels(im, n)[1], 1.f);
}

TEST(ImageIo, PngRoundTripAndBadFiles) {
  Image im;
  im.width = 5;
  im.height = 3;
  for (int i = 0; i < 45; ++i) im.rgb.push_back(static_cast<uint8_t>(i * 5));
  DrawDot(&im, 2, 1, 0.5f, Rgb{1, 2, 3});
  const std::string path = testing::TempDir() + "/nnapi_image_io_test.png";
  std::string err;
  ASSERT_TRUE(WritePng(path, im, &err)) << err;
  Image back;
  ASSERT_TRUE(ReadImage(path, &back, &err)) << err;
  EXPECT_EQ(back.width, 5);
  EXPECT_EQ(back.height, 3);
  EXPECT_EQ(back.rgb, im.rgb);
  EXPECT_EQ(back.rgb[(1 * 5 + 2) * 3], 1);
  // A truncated PNG and a non-image fail with a message instead of crashing.
  FILE* f = std::fopen(path.c_str(), "r+b");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(ftruncate(fileno(f), 40), 0);
  std::fclose(f);
  EXPECT_FALSE(ReadImage(path, &back, &err));
  EXPECT_NE(err.find("PNG"), std::string::npos) << err;
  EXPECT_FALSE(ReadImage("/proc/self/status", &back, &err));
  EXPECT_NE(err.find("not a PNG or JPEG"), std::string::npos) << err;
  std::remove(path.c_str());
}

// Writes a JPEG with libjpeg's encoder (the CLI only decodes JPEG).
static bool WriteJpegForTest(const std::string& path, const Image& im) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return false;
  jpeg_compress_struct c;
  jpeg_error_mgr e;
  c.err = jpeg_std_error(&e);
  jpeg_create_compress(&c);
  jpeg_stdio_dest(&c, f);
  c.image_width = static_cast<JDIMENSION>(im.width);
  c.image_height = static_cast<JDIMENSION>(im.height);
  c.input_components = 3;
  c.in_color_space = JCS_RGB;
  jpeg_set_defaults(&c);
  jpeg_set_quality(&c, 95, TRUE);
  jpeg_start_compress(&c, TRUE);
  while (c.next_scanline < c.image_height) {
    JSAMPROW row = const_cast<uint8_t*>(&im.rgb[static_cast<size_t>(c.next_scanline) * im.width * 3]);
    jpeg_write_scanlines(&c, &row, 1);
  }
  jpeg_finish_compress(&c);
  jpeg_destroy_compress(&c);
  return std::fclose(f) == 0;
}

TEST(ImageIo, JpegDecodes) {
  // Two flat halves (red | blue), 16x8: JPEG is lossy, so compare within a tolerance away from
  // the edge between them.
  Image im;
  im.width = 16;
  im.height = 8;
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 16; ++x) {
      const bool left = x < 8;
      im.rgb.insert(im.rgb.end(), {static_cast<uint8_t>(left ? 220 : 20), 40, static_cast<uint8_t>(left ? 30 : 200)});
    }
  const std::string path = testing::TempDir() + "/nnapi_image_io_test.jpg";
  ASSERT_TRUE(WriteJpegForTest(path, im));
  Image back;
  std::string err;
  ASSERT_TRUE(ReadImage(path, &back, &err)) << err;
  ASSERT_EQ(back.width, 16);
  ASSERT_EQ(back.height, 8);
  for (int y = 0; y < 8; ++y)
    for (int x : {0, 3, 12, 15})
      for (int c = 0; c < 3; ++c) {
        const size_t i = (static_cast<size_t>(y) * 16 + x) * 3 + c;
        EXPECT_NEAR(back.rgb[i], im.rgb[i], 12) << x << "," << y << " channel " << c;
      }
  // Cut inside the entropy-coded data: an error, not a crash.
  FILE* f = std::fopen(path.c_str(), "r+b");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(ftruncate(fileno(f), 200), 0);
  std::fclose(f);
  Image cut;
  EXPECT_FALSE(ReadImage(path, &cut, &err));  // libjpeg pads a truncated scan; we report it
  EXPECT_NE(err.find("JPEG"), std::string::npos) << err;
  std::remove(path.c_str());
}
