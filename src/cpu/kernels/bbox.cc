// Bounding-box kernels (API level 29): AXIS_ALIGNED_BBOX_TRANSFORM, BOX_WITH_NMS_LIMIT,
// GENERATE_PROPOSALS and DETECTION_POSTPROCESSING.
//
// All of them compute in float32 like the NNAPI reference (inputs widened or dequantized,
// outputs rounded back). BOX_WITH_NMS_LIMIT and GENERATE_PROPOSALS produce a number of boxes
// that depends on the input values, so their resolveShapes does the work at execution (the
// executor calls it instead of the catalog's inferShapes, before execute, and sizes the
// outputs from it), keeps the results in this execution's scratch, and execute copies them
// out. At compilation they defer.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <vector>

#include "cpu/kernel.h"
#include "cpu/kernels/detection_util.h"
#include "spec/ops/detection.h"

namespace nn {
namespace {

using namespace detection;  // NOLINT: shape checks, parameter readers and float32 staging

// Results of a data-dependent operation, one byte buffer per output. Per execution: several
// executions of one compilation may run this operation at the same time.
struct ComputedOutputs : OpScratch {
  std::vector<std::vector<uint8_t>> bytes;
};

// This execution's result buffers, emptied for a new computation.
Status computedOutputs(OpContext& ctx, ComputedOutputs** out) {
  ComputedOutputs* st = ctx.scratchAs<ComputedOutputs>();
  if (st == nullptr)
    return makeError(ErrorStatus::GENERAL_FAILURE,
                     "%s (operation #%u): no per-execution storage for the results", ctx.name(),
                     ctx.operationIndex());
  st->bytes.assign(ctx.numOutputs(), {});
  *out = st;
  return kOk;
}

Status copyComputedOutputs(OpContext& ctx) {
  auto* st = static_cast<ComputedOutputs*>(ctx.scratch());
  if (st == nullptr || st->bytes.size() != ctx.numOutputs())
    return ctx.fail("results were not computed before execution");
  for (uint32_t i = 0; i < ctx.numOutputs(); ++i) {
    const std::vector<uint8_t>& b = st->bytes[i];
    if (b.size() != ctx.outputShape(i).bytes())
      return ctx.fail("output %u: computed %zu bytes, the output holds %zu", i, b.size(),
                      ctx.outputShape(i).bytes());
    if (!b.empty()) memcpy(ctx.outputData(i), b.data(), b.size());
  }
  // The next computation recomputes everything in resolveShapes; release the copies now.
  std::vector<std::vector<uint8_t>>().swap(st->bytes);
  return kOk;
}

template <typename T>
void appendBytes(std::vector<uint8_t>* dst, const T* values, size_t count) {
  const size_t at = dst->size();
  dst->resize(at + count * sizeof(T));
  if (count) memcpy(dst->data() + at, values, count * sizeof(T));
}

// Bytes of `values` stored as tensor type `s`.
std::vector<uint8_t> floatsAsBytes(const Shape& s, const std::vector<float>& values) {
  std::vector<uint8_t> b(values.size() * elementSize(s.type));
  storeFloats(s, values.data(), values.size(), b.data());
  return b;
}

Status requireAllInputData(const OpContext& ctx) {
  for (uint32_t i = 0; i < ctx.numInputs(); ++i)
    if (!ctx.isOmitted(i) && !ctx.hasInputData(i)) return kDeferred;
  return kOk;
}

// Intersection over union of two [x1, y1, x2, y2] boxes.
float iouOf(const float* a, const float* b) {
  const float areaA = (a[2] - a[0]) * (a[3] - a[1]);
  const float areaB = (b[2] - b[0]) * (b[3] - b[1]);
  const float w = std::max(std::min(a[2], b[2]) - std::max(a[0], b[0]), 0.0f);
  const float h = std::max(std::min(a[3], b[3]) - std::max(a[1], b[1]), 0.0f);
  const float inter = w * h;
  return inter / (areaA + areaB - inter);
}

// Greedy NMS in place over select[0, length): repeatedly moves the best remaining candidate
// to the front and lets `suppress(candidate, iou)` decide whether each other candidate is
// dropped (swapped to the end). The candidate order this produces matches the reference,
// which matters for ties. Returns the number kept; maxKeep < 0 means no limit.
template <typename BoxOf, typename Suppress>
uint32_t greedyNms(const float* scores, int32_t maxKeep, BoxOf boxOf, Suppress suppress,
                   uint32_t* select, uint32_t length) {
  uint32_t* begin = select;
  uint32_t* end = select + length;
  const uint32_t limit = maxKeep < 0 ? length : static_cast<uint32_t>(maxKeep);
  uint32_t kept = 0;
  while (begin < end && kept < limit) {
    uint32_t* best = std::max_element(
        begin, end, [scores](uint32_t l, uint32_t r) { return scores[l] < scores[r]; });
    std::swap(*best, *begin);
    for (uint32_t* i = begin + 1; i < end; ++i) {
      if (suppress(*i, iouOf(boxOf(*i), boxOf(*begin)))) {
        std::swap(*i, *(end - 1));
        --end;
        --i;
      }
    }
    ++begin;
    ++kept;
  }
  return static_cast<uint32_t>(begin - select);
}

template <typename BoxOf>
uint32_t hardNms(const float* scores, float iouThreshold, int32_t maxKeep, BoxOf boxOf,
                 uint32_t* select, uint32_t length) {
  return greedyNms(
      scores, maxKeep, boxOf, [iouThreshold](uint32_t, float iou) { return iou >= iouThreshold; },
      select, length);
}

// Sorts candidates by descending score; ties keep their order so results are reproducible.
void sortByScore(const float* scores, std::vector<uint32_t>* v) {
  std::stable_sort(v->begin(), v->end(),
                   [scores](uint32_t l, uint32_t r) { return scores[l] > scores[r]; });
}

// ---- AXIS_ALIGNED_BBOX_TRANSFORM ----------------------------------------------------

// Applies [dx, dy, dw, dh] to an [x1, y1, x2, y2] box and clips it to the image.
void applyDelta(const float* box, const float* delta, float imageH, float imageW, float* out) {
  const float w = box[2] - box[0];
  const float h = box[3] - box[1];
  const float cx = (box[0] + box[2]) / 2;
  const float cy = (box[1] + box[3]) / 2;
  const float nw = std::exp(delta[2]) * w;
  const float nh = std::exp(delta[3]) * h;
  const float ncx = cx + delta[0] * w;
  const float ncy = cy + delta[1] * h;
  auto clip = [](float v, float hi) { return std::min(std::max(v, 0.0f), hi); };
  out[0] = clip(ncx - nw / 2, imageW);
  out[1] = clip(ncy - nh / 2, imageH);
  out[2] = clip(ncx + nw / 2, imageW);
  out[3] = clip(ncy + nh / 2, imageH);
}

Status executeBboxTransform(OpContext& ctx) {
  const Shape& outShape = ctx.outputShape(0);
  if (outShape.count() == 0) return kOk;
  const std::vector<float> rois = inputAsFloat(ctx, 0);
  const std::vector<float> deltas = inputAsFloat(ctx, 1);
  const std::vector<float> info = inputAsFloat(ctx, 3);
  const int32_t* batches = ctx.input<int32_t>(2);
  const uint32_t numRois = ctx.inputShape(0).dims[0];
  const uint32_t numClasses = ctx.inputShape(1).dims[1] / kRoiDim;
  const uint32_t numBatches = ctx.inputShape(3).dims[0];
  std::vector<float> out(static_cast<size_t>(outShape.count()));
  for (uint32_t r = 0; r < numRois; ++r) {
    const float* box = &rois[r * kRoiDim];
    if (batches[r] < 0 || static_cast<uint32_t>(batches[r]) >= numBatches)
      return ctx.fail("box %u: batch index %d is out of range [0, %u)", r, batches[r], numBatches);
    if (!(box[0] <= box[2]) || !(box[1] <= box[3]))
      return ctx.fail("box %u: invalid region, need x1 <= x2 and y1 <= y2", r);
    const float* image = &info[static_cast<size_t>(batches[r]) * 2];
    for (uint32_t c = 0; c < numClasses; ++c) {
      const size_t at = (static_cast<size_t>(r) * numClasses + c) * kRoiDim;
      applyDelta(box, &deltas[at], image[0], image[1], &out[at]);
    }
  }
  storeFloats(outShape, out.data(), out.size(), ctx.outputData(0));
  return kOk;
}

// ---- BOX_WITH_NMS_LIMIT -------------------------------------------------------------

Status resolveBoxWithNms(OpContext& ctx) {
  NN_RETURN_IF_ERROR(checkBoxWithNmsShapes(ctx));
  const uint32_t numRois = ctx.inputShape(0).dims[0];
  const uint32_t numClasses = ctx.inputShape(0).dims[1];
  // The number of boxes kept is only known once the values are.
  if (!ctx.env().executing) return kDeferred;
  NN_RETURN_IF_ERROR(requireAllInputData(ctx));

  const float scoreThreshold = floatScalar(ctx, 3);
  const int32_t maxDetections = ctx.scalar<int32_t>(4);
  const int32_t kernel = ctx.scalar<int32_t>(5);
  const float iouThreshold = floatScalar(ctx, 6);
  const float sigma = floatScalar(ctx, 7);
  const float nmsScoreThreshold = floatScalar(ctx, 8);
  if (kernel < kHardNms || kernel > kGaussianNms)
    return ctx.fail("NMS kernel must be 0 (hard), 1 (linear) or 2 (gaussian), got %d", kernel);

  std::vector<float> scores = inputAsFloat(ctx, 0);
  const std::vector<float> rois = inputAsFloat(ctx, 1);
  const int32_t* batches = ctx.input<int32_t>(2);
  // Soft NMS rescales the scores of overlapping candidates by this factor.
  auto factor = [kernel, iouThreshold, sigma](float iou) {
    switch (kernel) {
      case kHardNms: return iou < iouThreshold ? 1.0f : 0.0f;
      case kLinearNms: return iou < iouThreshold ? 1.0f : 1.0f - iou;
      default: return std::exp(-1.0f * iou * iou / sigma);
    }
  };

  // Selected (global) indexes into scores, grouped by batch, each group sorted by class
  // then descending score.
  std::vector<uint32_t> selected;
  std::vector<int32_t> selectedBatch;
  uint32_t groupStart = 0;
  while (groupStart < numRois) {
    uint32_t groupEnd = groupStart + 1;
    while (groupEnd < numRois && batches[groupEnd] == batches[groupStart]) ++groupEnd;
    const uint32_t n = groupEnd - groupStart;
    float* groupScores = &scores[static_cast<size_t>(groupStart) * numClasses];
    const float* groupRois = &rois[static_cast<size_t>(groupStart) * numClasses * kRoiDim];
    auto boxOf = [groupRois](uint32_t i) { return groupRois + static_cast<size_t>(i) * kRoiDim; };
    std::vector<uint32_t> result;
    for (uint32_t c = 1; c < numClasses; ++c) {  // class 0 is background
      const size_t first = result.size();
      for (uint32_t b = 0; b < n; ++b) {
        const uint32_t index = b * numClasses + c;
        if (groupScores[index] > scoreThreshold) {
          const float* box = boxOf(index);
          if (!(box[0] <= box[2]) || !(box[1] <= box[3]))
            return ctx.fail("box %u class %u: invalid region, need x1 <= x2 and y1 <= y2",
                            groupStart + b, c);
          result.push_back(index);
        }
      }
      const uint32_t kept = greedyNms(
          groupScores, maxDetections, boxOf,
          [&](uint32_t i, float iou) {
            groupScores[i] *= factor(iou);
            return groupScores[i] < nmsScoreThreshold;
          },
          result.data() + first, static_cast<uint32_t>(result.size() - first));
      result.resize(first + kept);
    }
    sortByScore(groupScores, &result);
    if (maxDetections >= 0 && result.size() > static_cast<size_t>(maxDetections))
      result.resize(static_cast<size_t>(maxDetections));
    std::stable_sort(result.begin(), result.end(), [&](uint32_t l, uint32_t r) {
      const uint32_t lc = l % numClasses, rc = r % numClasses;
      return lc == rc ? groupScores[l] > groupScores[r] : lc < rc;
    });
    for (uint32_t index : result) {
      selected.push_back(groupStart * numClasses + index);
      selectedBatch.push_back(batches[groupStart]);
    }
    groupStart = groupEnd;
  }

  const uint32_t numOut = static_cast<uint32_t>(selected.size());
  ComputedOutputs* st = nullptr;
  NN_RETURN_IF_ERROR(computedOutputs(ctx, &st));
  std::vector<float> outScores(numOut);
  std::vector<int32_t> classes(numOut);
  const size_t roiElem = elementSize(ctx.inputType(1));
  const uint8_t* roiBytes = static_cast<const uint8_t*>(ctx.inputData(1));
  for (uint32_t k = 0; k < numOut; ++k) {
    outScores[k] = scores[selected[k]];
    classes[k] = static_cast<int32_t>(selected[k] % numClasses);
    // Boxes are copied bit for bit from the input.
    appendBytes(&st->bytes[1], roiBytes + static_cast<size_t>(selected[k]) * kRoiDim * roiElem,
                kRoiDim * roiElem);
  }
  st->bytes[0] = floatsAsBytes(ctx.outputShape(0), outScores);
  appendBytes(&st->bytes[2], classes.data(), classes.size());
  appendBytes(&st->bytes[3], selectedBatch.data(), selectedBatch.size());
  NN_RETURN_IF_ERROR(ctx.setOutputDims(0, {numOut}));
  NN_RETURN_IF_ERROR(ctx.setOutputDims(1, {numOut, kRoiDim}));
  NN_RETURN_IF_ERROR(ctx.setOutputDims(2, {numOut}));
  return ctx.setOutputDims(3, {numOut});
}

// ---- GENERATE_PROPOSALS -------------------------------------------------------------

Status resolveGenerateProposals(OpContext& ctx) {
  bool nchw = false;
  NN_RETURN_IF_ERROR(checkGenerateProposalsShapes(ctx, &nchw));
  const Dims& sd = ctx.inputShape(0).dims;
  const uint32_t numBatches = sd[0];
  const uint32_t height = nchw ? sd[2] : sd[1];
  const uint32_t width = nchw ? sd[3] : sd[2];
  const uint32_t numAnchors = nchw ? sd[1] : sd[3];
  // The number of proposals kept is only known once the values are.
  if (!ctx.env().executing) return kDeferred;
  NN_RETURN_IF_ERROR(requireAllInputData(ctx));

  const float hStride = floatScalar(ctx, 4);
  const float wStride = floatScalar(ctx, 5);
  const int32_t preNmsTop = ctx.scalar<int32_t>(6);
  const int32_t postNmsTop = ctx.scalar<int32_t>(7);
  const float iouThreshold = floatScalar(ctx, 8);
  const float minSize = floatScalar(ctx, 9);
  const std::vector<float> scores = inputAsFloat(ctx, 0);
  const std::vector<float> deltas = inputAsFloat(ctx, 1);
  const std::vector<float> anchors = inputAsFloat(ctx, 2);
  const std::vector<float> info = inputAsFloat(ctx, 3);

  const uint32_t perImage = height * width * numAnchors;
  // Anchors shifted to every feature-map position, in (h, w, anchor) order.
  std::vector<float> shifted(static_cast<size_t>(perImage) * kRoiDim);
  for (uint32_t h = 0; h < height; ++h) {
    const float hShift = h * hStride;
    for (uint32_t w = 0; w < width; ++w) {
      const float wShift = w * wStride;
      for (uint32_t a = 0; a < numAnchors; ++a) {
        float* box = &shifted[((static_cast<size_t>(h) * width + w) * numAnchors + a) * kRoiDim];
        const float* anchor = &anchors[a * kRoiDim];
        box[0] = anchor[0] + wShift;
        box[1] = anchor[1] + hShift;
        box[2] = anchor[2] + wShift;
        box[3] = anchor[3] + hShift;
        if (!(box[0] <= box[2]) || !(box[1] <= box[3]))
          return ctx.fail("anchor %u: invalid region, need x1 <= x2 and y1 <= y2", a);
      }
    }
  }

  std::vector<float> outScores, outRois;
  std::vector<int32_t> outBatches;
  std::vector<float> boxes(static_cast<size_t>(perImage) * kRoiDim);
  std::vector<float> imageScores(perImage);
  for (uint32_t b = 0; b < numBatches; ++b) {
    const float imageH = info[b * 2], imageW = info[b * 2 + 1];
    for (uint32_t h = 0; h < height; ++h) {
      for (uint32_t w = 0; w < width; ++w) {
        for (uint32_t a = 0; a < numAnchors; ++a) {
          const size_t i = (static_cast<size_t>(h) * width + w) * numAnchors + a;
          float delta[kRoiDim];
          for (uint32_t k = 0; k < kRoiDim; ++k) {
            const size_t channel = a * kRoiDim + k;
            const size_t at =
                nchw ? ((static_cast<size_t>(b) * numAnchors * kRoiDim + channel) * height + h) *
                               width + w
                     : ((static_cast<size_t>(b) * height + h) * width + w) * numAnchors * kRoiDim +
                           channel;
            delta[k] = deltas[at];
          }
          applyDelta(&shifted[i * kRoiDim], delta, imageH, imageW, &boxes[i * kRoiDim]);
          imageScores[i] =
              nchw ? scores[((static_cast<size_t>(b) * numAnchors + a) * height + h) * width + w]
                   : scores[static_cast<size_t>(b) * perImage + i];
        }
      }
    }
    std::vector<uint32_t> select(perImage);
    std::iota(select.begin(), select.end(), 0u);
    if (preNmsTop > 0 && static_cast<uint32_t>(preNmsTop) < perImage) {
      sortByScore(imageScores.data(), &select);
      select.resize(static_cast<size_t>(preNmsTop));
    }
    // Drop boxes that are too small or whose centre lies outside the image.
    size_t kept = 0;
    for (uint32_t i : select) {
      const float* box = &boxes[static_cast<size_t>(i) * kRoiDim];
      const float bw = box[2] - box[0], bh = box[3] - box[1];
      const float cx = box[0] + bw / 2.0f, cy = box[1] + bh / 2.0f;
      if (bw > minSize && bh > minSize && cx < imageW && cy < imageH) select[kept++] = i;
    }
    select.resize(kept);
    const uint32_t n = hardNms(
        imageScores.data(), iouThreshold, postNmsTop > 0 ? postNmsTop : -1,
        [&boxes](uint32_t i) { return &boxes[static_cast<size_t>(i) * kRoiDim]; }, select.data(),
        static_cast<uint32_t>(select.size()));
    for (uint32_t k = 0; k < n; ++k) {
      const uint32_t i = select[k];
      outRois.insert(outRois.end(), &boxes[static_cast<size_t>(i) * kRoiDim],
                     &boxes[static_cast<size_t>(i) * kRoiDim] + kRoiDim);
      outScores.push_back(imageScores[i]);
      outBatches.push_back(static_cast<int32_t>(b));
    }
  }

  const uint32_t numOut = static_cast<uint32_t>(outScores.size());
  ComputedOutputs* st = nullptr;
  NN_RETURN_IF_ERROR(computedOutputs(ctx, &st));
  st->bytes[0] = floatsAsBytes(ctx.outputShape(0), outScores);
  st->bytes[1] = floatsAsBytes(ctx.outputShape(1), outRois);
  appendBytes(&st->bytes[2], outBatches.data(), outBatches.size());
  NN_RETURN_IF_ERROR(ctx.setOutputDims(0, {numOut}));
  NN_RETURN_IF_ERROR(ctx.setOutputDims(1, {numOut, kRoiDim}));
  return ctx.setOutputDims(2, {numOut});
}

// ---- DETECTION_POSTPROCESSING -------------------------------------------------------

Status executeDetectionPostprocess(OpContext& ctx) {
  PostprocessParams p;
  NN_RETURN_IF_ERROR(readPostprocessParams(ctx, &p));
  const Dims& sd = ctx.inputShape(0).dims;
  const uint32_t numBatches = sd[0], numAnchors = sd[1], numClasses = sd[2];
  const uint32_t encoding = ctx.inputShape(1).dims[2];
  const uint32_t numOut = ctx.outputShape(0).dims[1];
  const std::vector<float> scores = inputAsFloat(ctx, 0);
  const std::vector<float> deltas = inputAsFloat(ctx, 1);
  const std::vector<float> anchors = inputAsFloat(ctx, 2);
  std::vector<float> outScores(static_cast<size_t>(numBatches) * numOut, 0.f);
  std::vector<float> outBoxes(outScores.size() * kRoiDim, 0.f);
  int32_t* outClasses = ctx.output<int32_t>(2);
  int32_t* outCounts = ctx.output<int32_t>(3);
  std::fill(outClasses, outClasses + outScores.size(), 0);
  const int32_t labelOffset = p.backgroundInLabel ? 0 : 1;
  std::vector<float> boxes(static_cast<size_t>(numAnchors) * kRoiDim);
  for (uint32_t b = 0; b < numBatches; ++b) {
    const float* score = &scores[static_cast<size_t>(b) * numAnchors * numClasses];
    // Decode [dy, dx, dh, dw] against [cy, cx, h, w] anchors into [y1, x1, y2, x2].
    for (uint32_t a = 0; a < numAnchors; ++a) {
      const float* anchor = &anchors[a * kRoiDim];
      const float* d = &deltas[(static_cast<size_t>(b) * numAnchors + a) * encoding];
      const float cy = anchor[0] + anchor[2] * d[0] / p.scaleY;
      const float cx = anchor[1] + anchor[3] * d[1] / p.scaleX;
      const float halfH = anchor[2] * std::exp(d[2] / p.scaleH) * 0.5f;
      const float halfW = anchor[3] * std::exp(d[3] / p.scaleW) * 0.5f;
      float* box = &boxes[a * kRoiDim];
      box[0] = cy - halfH;
      box[1] = cx - halfW;
      box[2] = cy + halfH;
      box[3] = cx + halfW;
    }
    float* scoreOut = &outScores[static_cast<size_t>(b) * numOut];
    float* boxOut = &outBoxes[static_cast<size_t>(b) * numOut * kRoiDim];
    int32_t* classOut = outClasses + static_cast<size_t>(b) * numOut;
    // The IoU helper reads [x1, y1, x2, y2]; [y1, x1, y2, x2] gives the same value.
    if (p.regularNms) {
      auto boxOf = [&boxes, numClasses](uint32_t i) {
        return &boxes[(i / numClasses) * kRoiDim];
      };
      std::vector<uint32_t> select;
      for (uint32_t c = 1; c < numClasses; ++c) {
        const size_t first = select.size();
        for (uint32_t a = 0; a < numAnchors; ++a) {
          const uint32_t index = a * numClasses + c;
          if (score[index] > p.scoreThreshold) select.push_back(index);
        }
        const uint32_t kept = hardNms(score, p.iouThreshold, p.maxDetectionsPerClass, boxOf,
                                      select.data() + first,
                                      static_cast<uint32_t>(select.size() - first));
        select.resize(first + kept);
      }
      sortByScore(score, &select);
      if (select.size() > static_cast<size_t>(p.maxDetections))
        select.resize(static_cast<size_t>(p.maxDetections));
      for (size_t k = 0; k < select.size(); ++k) {
        const uint32_t index = select[k];
        scoreOut[k] = score[index];
        memcpy(boxOut + k * kRoiDim, boxOf(index), kRoiDim * sizeof(float));
        classOut[k] = static_cast<int32_t>(index % numClasses) - labelOffset;
      }
      outCounts[b] = static_cast<int32_t>(select.size());
    } else {
      const uint32_t classesPer =
          std::min<uint32_t>(numClasses - 1, static_cast<uint32_t>(p.maxClassesPerDetection));
      std::vector<float> best(numAnchors);
      std::vector<uint32_t> select;
      for (uint32_t a = 0; a < numAnchors; ++a) {
        best[a] = *std::max_element(score + a * numClasses + 1, score + (a + 1) * numClasses);
        if (best[a] > p.scoreThreshold) select.push_back(a);
      }
      const uint32_t kept = hardNms(
          best.data(), p.iouThreshold, p.maxDetections,
          [&boxes](uint32_t a) { return &boxes[a * kRoiDim]; }, select.data(),
          static_cast<uint32_t>(select.size()));
      select.resize(kept);
      size_t k = 0;
      std::vector<uint32_t> order(numClasses - 1);
      for (uint32_t a : select) {
        const float* s = score + a * numClasses;
        std::iota(order.begin(), order.end(), 1u);
        std::stable_sort(order.begin(), order.end(),
                         [s](uint32_t l, uint32_t r) { return s[l] > s[r]; });
        for (uint32_t c = 0; c < classesPer; ++c, ++k) {
          scoreOut[k] = s[order[c]];
          memcpy(boxOut + k * kRoiDim, &boxes[a * kRoiDim], kRoiDim * sizeof(float));
          classOut[k] = static_cast<int32_t>(order[c]) - labelOffset;
        }
      }
      outCounts[b] = static_cast<int32_t>(k);
    }
  }
  storeFloats(ctx.outputShape(0), outScores.data(), outScores.size(), ctx.outputData(0));
  storeFloats(ctx.outputShape(1), outBoxes.data(), outBoxes.size(), ctx.outputData(1));
  return kOk;
}

}  // namespace

NN_DEFINE_CPU_KERNEL(AXIS_ALIGNED_BBOX_TRANSFORM, executeBboxTransform);
NN_DEFINE_CPU_KERNEL_FULL(BOX_WITH_NMS_LIMIT, copyComputedOutputs, nullptr, nullptr,
                          resolveBoxWithNms);
NN_DEFINE_CPU_KERNEL_FULL(GENERATE_PROPOSALS, copyComputedOutputs, nullptr, nullptr,
                          resolveGenerateProposals);
NN_DEFINE_CPU_KERNEL(DETECTION_POSTPROCESSING, executeDetectionPostprocess);

}  // namespace nn
