/* gst-cuda-vision
 * Copyright (C) 2026 The gst-cuda-vision authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * This library is free software; you can redistribute it and/or modify it
 * under the terms of the GNU Lesser General Public License as published by
 * the Free Software Foundation; either version 2.1 of the License, or (at
 * your option) any later version. It is distributed in the hope that it
 * will be useful, but WITHOUT ANY WARRANTY; see the GNU Lesser General
 * Public License (COPYING) for more details.
 */

/* CUDA kernels of the tone mapping. Four launches per frame, all on the
 * element's stream, nothing read back:
 *  - luminance: Lw of every pixel (kept for the local operator) and, per
 *    block, the sum and extremes of ln (delta + Lw), in a fixed order;
 *  - adaptation: one block folds the partials and updates the adapted
 *    log-average and exposure in device memory;
 *  - global or local: every pixel mapped with the exposure read from device
 *    memory. The local kernel builds, per 64x64 tile, the summed-area table
 *    of the scaled luminance over the tile and an apron of the largest box's
 *    half-width in shared memory (double precision: box sums subtract
 *    corner values, which must keep dark pixels accurate next to
 *    lights 1e5 times brighter) and reads every box from it. */
#include <cuda_runtime.h>

#include "tonemap-common.h"
#include "tonemap-private.h"
#include "cvcore-private.h"
#include "launch.cuh"

namespace {

constexpr int kThreads = 256;
constexpr int kTile = 64;

template <typename T>
struct SampleMax;
template <>
struct SampleMax<unsigned char>
{
  static constexpr float value = 255.0f;
};
template <>
struct SampleMax<unsigned short>
{
  static constexpr float value = 65535.0f;
};

template <typename T>
__device__ __forceinline__ T
sample_at (const unsigned char *plane, size_t pitch, int x, int y, int c,
    int channels)
{
  return reinterpret_cast<const T *> (plane + y * pitch)[x * channels + c];
}

/* Packed samples: coded values 0..1 of pixel (x, y). */
template <typename T, int C>
struct Packed
{
  static constexpr bool kColour = C == 4;
  const unsigned char *data;
  size_t pitch;

  __device__ __forceinline__ void
  code (int x, int y, float e[3]) const
  {
#pragma unroll
    for (int c = 0; c < (kColour ? 3 : 1); c++)
      e[c] =
          (float) sample_at<T> (data, pitch, x, y, c, C) / SampleMax<T>::value;
  }

  __device__ __forceinline__ float
  alpha (int x, int y) const
  {
    return kColour
        ? (float) sample_at<T> (data, pitch, x, y, 3, C) / SampleMax<T>::value
        : 1.0f;
  }
};

/* 4:2:0 Y'CbCr, chroma semi-planar (Cb Cr interleaved) or planar. */
template <typename T, bool Semi>
struct Yuv420
{
  static constexpr bool kColour = true;
  const unsigned char *luma, *cb, *cr;
  size_t luma_pitch, cb_pitch, cr_pitch;
  int shift;
  float y_offset, y_range, c_offset, c_range, kr, kb;

  __device__ __forceinline__ void
  code (int x, int y, float e[3]) const
  {
    const float yc =
        ((float) (sample_at<T> (luma, luma_pitch, x, y, 0, 1) >> shift)
            - y_offset)
        / y_range;
    const int cx = x / 2, cy = y / 2;
    const float u =
        ((float) (sample_at<T> (cb, cb_pitch, cx, cy, 0, Semi ? 2 : 1) >> shift)
            - c_offset)
        / c_range;
    const float v = ((float) (sample_at<T> (cr, cr_pitch, cx, cy, Semi ? 1 : 0,
                                  Semi ? 2 : 1)
                         >> shift)
                        - c_offset)
        / c_range;

    e[0] = yc + 2.0f * (1.0f - kr) * v;
    e[2] = yc + 2.0f * (1.0f - kb) * u;
    e[1] = (yc - kr * e[0] - kb * e[2]) / (1.0f - kr - kb);
  }

  __device__ __forceinline__ float
  alpha (int, int) const
  {
    return 1.0f;
  }
};

/* A source and what turns its codes into light (the CPU reference's
 * decode (), in single precision). */
template <class Codes>
struct Source : Codes
{
  int transfer;
  float scale; /* input_scale */
  float weight[3];
  bool to709;

  /* Accurate powers for the luminance that decides the local scale (a
   * relative error of 1e-5 near PQ's black flips decisions), the
   * special-function unit for colour ratios. */
  template <bool Accurate>
  __device__ __forceinline__ static float
  power (float x, float y)
  {
    return Accurate ? powf (x, y) : __powf (x, y);
  }

  template <bool Accurate>
  __device__ __forceinline__ float
  decode (float e) const
  {
    e = fminf (fmaxf (e, 0.0f), 1.0f);
    if (transfer == CVCORE_TONEMAP_PQ) {
      const float p = power<Accurate> (e, (float) (1.0 / CV_PQ_M2));

      return (float) CV_PQ_SCALE
          * power<Accurate> (fmaxf (p - (float) CV_PQ_C1, 0.0f)
                  / ((float) CV_PQ_C2 - (float) CV_PQ_C3 * p),
              (float) (1.0 / CV_PQ_M1));
    }
    if (transfer == CVCORE_TONEMAP_HLG)
      return e <= 0.5f
          ? e * e / 3.0f
          : ((Accurate ? expf ((e - (float) CV_HLG_C) / (float) CV_HLG_A)
                       : __expf ((e - (float) CV_HLG_C) / (float) CV_HLG_A))
                + (float) CV_HLG_B)
              / 12.0f;
    return e;
  }

  /* Light of pixel (x, y) in the source's primaries; returns Lw. */
  template <bool Accurate = false>
  __device__ __forceinline__ float
  light (int x, int y, float rgb[3]) const
  {
    float e[3];

    this->code (x, y, e);
    if constexpr (!Codes::kColour) {
      return rgb[0] = rgb[1] = rgb[2] = scale * decode<Accurate> (e[0]);
    } else {
#pragma unroll
      for (int c = 0; c < 3; c++)
        rgb[c] = scale * decode<Accurate> (e[c]);
      return weight[0] * rgb[0] + weight[1] * rgb[1] + weight[2] * rgb[2];
    }
  }

  __device__ __forceinline__ float
  luminance (int x, int y) const
  {
    float rgb[3];

    return light<true> (x, y, rgb);
  }
};

struct Output
{
  unsigned char *data;
  size_t pitch;
  float saturation;
  bool bgr;
};

/* sRGB encoding of linear @v, clamped, to 8 bits. The power goes through
 * the special-function unit: its relative error (about 1e-6) stays far
 * below half a step of the output. */
__device__ __forceinline__ unsigned char
to_byte (float v)
{
  v = fminf (fmaxf (v, 0.0f), 1.0f);
  v = v <= 0.0031308f ? 12.92f * v : 1.055f * __powf (v, 1.0f / 2.4f) - 0.055f;
  return (unsigned char) (v * 255.0f + 0.5f);
}

/* Colour of pixel (x, y), of luminance @lw, at display luminance @ld,
 * written out. */
template <class Src>
__device__ __forceinline__ void
write_pixel (const Src &src, const Output &out, int x, int y, float lw,
    float ld)
{
  float rgb[3], r, g, b;
  uchar4 o;

  src.template light<false> (x, y, rgb);
  if (!Src::kColour || !(lw > 0.0f)) {
    r = g = b = lw > 0.0f ? ld : 0.0f;
  } else {
    const float k = 1.0f / lw;

    if (src.to709) {
      double m[3];
      float c709[3];

#pragma unroll
      for (int c = 0; c < 3; c++) {
        cv_tonemap_bt2020_to_bt709 (c, m);
        c709[c] = (float) m[0] * rgb[0] + (float) m[1] * rgb[1]
            + (float) m[2] * rgb[2];
      }
      rgb[0] = c709[0];
      rgb[1] = c709[1];
      rgb[2] = c709[2];
    }
    r = fmaxf (rgb[0], 0.0f) * k;
    g = fmaxf (rgb[1], 0.0f) * k;
    b = fmaxf (rgb[2], 0.0f) * k;
    if (out.saturation != 1.0f) {
      r = __powf (r, out.saturation);
      g = __powf (g, out.saturation);
      b = __powf (b, out.saturation);
    }
    r *= ld;
    g *= ld;
    b *= ld;
  }
  o.x = to_byte (out.bgr ? b : r);
  o.y = to_byte (g);
  o.z = to_byte (out.bgr ? r : b);
  o.w = out.bgr ? 255 : (unsigned char) (src.alpha (x, y) * 255.0f + 0.5f);
  reinterpret_cast<uchar4 *> (out.data + y * out.pitch)[x] = o;
}

/* Sum, min and max over the block, in a fixed order; thread 0 gets them. */
__device__ void
block_fold (double &sum, float &lo, float &hi)
{
  __shared__ double sums[kThreads / 32];
  __shared__ float los[kThreads / 32], his[kThreads / 32];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;

#pragma unroll
  for (int o = 16; o > 0; o /= 2) {
    sum += __shfl_down_sync (0xffffffffu, sum, o);
    lo = fminf (lo, __shfl_down_sync (0xffffffffu, lo, o));
    hi = fmaxf (hi, __shfl_down_sync (0xffffffffu, hi, o));
  }
  if (lane == 0) {
    sums[warp] = sum;
    los[warp] = lo;
    his[warp] = hi;
  }
  __syncthreads ();
  if (threadIdx.x == 0)
    for (int w = 1; w < kThreads / 32; w++) {
      sum += sums[w];
      lo = fminf (lo, los[w]);
      hi = fmaxf (hi, his[w]);
    }
}

/* Rows blockIdx.x, + gridDim.x, ...: Lw into the map (when given) and the
 * block's log statistics into partials[blockIdx.x]. */
template <class Src>
__global__ void
__launch_bounds__ (kThreads) luminance_pass (Src in, int width, int height,
    float delta, float *map, size_t map_pitch, double *partials)
{
  double sum = 0.0;
  float lo = INFINITY, hi = -INFINITY;

  for (int y = blockIdx.x; y < height; y += gridDim.x)
    for (int x = threadIdx.x; x < width; x += kThreads) {
      const float lw = in.luminance (x, y);
      const float lg = logf (delta + lw);

      if (map)
        reinterpret_cast<float *> (
            reinterpret_cast<char *> (map) + y * map_pitch)[x] = lw;
      sum += lg;
      lo = fminf (lo, lg);
      hi = fmaxf (hi, lg);
    }
  block_fold (sum, lo, hi);
  if (threadIdx.x == 0) {
    partials[3 * blockIdx.x] = sum;
    partials[3 * blockIdx.x + 1] = lo;
    partials[3 * blockIdx.x + 2] = hi;
  }
}

__global__ void
__launch_bounds__ (kThreads) adaptation_pass (const double *partials,
    int n_partials, double n_pixels, cvcore_tonemap_params params, double dt,
    bool reset, cvcore_tonemap_adaptation *adapted)
{
  double sum = 0.0;
  float lo = INFINITY, hi = -INFINITY;

  for (int i = threadIdx.x; i < n_partials; i += kThreads) {
    sum += partials[3 * i];
    lo = fminf (lo, (float) partials[3 * i + 1]);
    hi = fmaxf (hi, (float) partials[3 * i + 2]);
  }
  block_fold (sum, lo, hi);
  if (threadIdx.x == 0) {
    const cvcore_tonemap_adaptation prev = *adapted;

    cv_tonemap_update_adaptation (&params, sum, lo, hi, n_pixels, dt, reset,
        &prev, adapted);
  }
}

template <class Src>
__global__ void
__launch_bounds__ (kThreads) global_pass (Src in, Output out, int width,
    int height, float inverse_white2, const cvcore_tonemap_adaptation *adapted)
{
  const int x = blockIdx.x * 32 + threadIdx.x % 32;
  const int y = blockIdx.y * 8 + threadIdx.x / 32;

  if (x >= width || y >= height)
    return;
  const float lw = in.luminance (x, y);
  /* Reinhard's global curve (cv_tonemap_global) in single precision: the
   * output has 8 bits. */
  const float l = (float) (adapted->scale * lw);

  write_pixel (in, out, x, y, lw, l * (1.0f + l * inverse_white2) / (1.0f + l));
}

struct Local
{
  const float *map;
  size_t map_pitch;
  int width, height;
  int radius; /* half-width of the largest box */
  int scales;
  double threshold; /* 2^phi */
  double epsilon;

  __device__ __forceinline__ float
  lw (int x, int y) const
  {
    return reinterpret_cast<const float *> (
        reinterpret_cast<const char *> (map) + y * map_pitch)[x];
  }
};

/* Side and row pitch (odd, for conflict-free columns) of a tile's table. */
__host__ __device__ __forceinline__ int
table_side (int radius)
{
  return kTile + 2 * radius + 1;
}

__host__ __device__ __forceinline__ int
table_pitch (int radius)
{
  return table_side (radius) | 1;
}

template <class Src>
__global__ void
__launch_bounds__ (kThreads) local_pass (Src in, Output out, Local loc,
    const cvcore_tonemap_adaptation *adapted)
{
  extern __shared__ double table[];
  const int r = loc.radius, side = table_side (r), pitch = table_pitch (r);
  const int n = side - 1; /* region: tile and apron */
  const int x0 = blockIdx.x * kTile, y0 = blockIdx.y * kTile;
  const int rx = x0 - r, ry = y0 - r; /* region origin in the frame */
  const double scale = adapted->scale;

  /* table[(i + 1) pitch + j + 1]: L of region pixel (j, i), 0 outside the
   * frame; row and column 0 are zero. */
  for (int i = threadIdx.x; i < side; i += kThreads)
    table[i] = table[i * pitch] = 0.0;
  for (int k = threadIdx.x; k < n * n; k += kThreads) {
    const int i = k / n, j = k - i * n;
    const int x = rx + j, y = ry + i;

    table[(i + 1) * pitch + j + 1] =
        x >= 0 && x < loc.width && y >= 0 && y < loc.height
        ? scale * loc.lw (x, y)
        : 0.0;
  }
  __syncthreads ();
  /* Prefix sums along rows, then down columns: one line per thread. */
  for (int i = threadIdx.x; i < n; i += kThreads) {
    double *row = table + (i + 1) * pitch;
    double acc = 0.0;

    for (int j = 1; j <= n; j++)
      row[j] = acc += row[j];
  }
  __syncthreads ();
  for (int j = threadIdx.x; j < n; j += kThreads) {
    double *col = table + j + 1;
    double acc = 0.0;

    for (int i = 1; i <= n; i++)
      col[i * pitch] = acc += col[i * pitch];
  }
  __syncthreads ();

  const double threshold_scale = loc.threshold * adapted->exposure;
  for (int k = threadIdx.x; k < kTile * kTile; k += kThreads) {
    const int x = x0 + k % kTile, y = y0 + k / kTile;

    if (x >= loc.width || y >= loc.height)
      continue;
    const float lw = loc.lw (x, y);
    const double l = scale * lw;
    /* Average of L over box @i (clipped to the frame) from the table. */
    auto box = [&] (int i) {
      const int h = cv_tonemap_edge (i) / 2;
      const int bx0 = max (x - h, 0), bx1 = min (x + h, loc.width - 1);
      const int by0 = max (y - h, 0), by1 = min (y + h, loc.height - 1);
      const int a0 = (by0 - ry) * pitch, a1 = (by1 - ry + 1) * pitch;
      const int b0 = bx0 - rx, b1 = bx1 - rx + 1;
      const double sum =
          table[a1 + b1] - table[a0 + b1] - table[a1 + b0] + table[a0 + b0];
      const int area = (bx1 - bx0 + 1) * (by1 - by0 + 1);

      return area == cv_tonemap_edge (i) * cv_tonemap_edge (i)
          ? sum * cv_tonemap_inverse_area (i)
          : sum / area;
    };
    /* The walk of the CPU reference (tonemap.c), unrolled so that nothing
     * is indexed at run time. */
    double centre = l, vc = l;

#pragma unroll
    for (int i = 0; i + 1 < CVCORE_TONEMAP_MAX_SCALES; i++) {
      if (i + 1 >= loc.scales)
        break;
      const double vs = box (i + 1);

      if (!cv_tonemap_keeps_walking (vc, vs, i, threshold_scale, loc.epsilon))
        break;
      centre = vc;
      vc = vs;
    }
    write_pixel (in, out, x, y, lw, (float) l / (1.0f + (float) centre));
  }
}

/* 8-bit R'G'B' to NV12 (the CPU reference's cpu_rgba_to_nv12 ()): one
 * thread per 2x2 block. */
__global__ void
__launch_bounds__ (kThreads) nv12_pass (const unsigned char *rgba,
    size_t rgba_pitch, int width, int height, unsigned char *luma,
    size_t luma_pitch, unsigned char *chroma, size_t chroma_pitch)
{
  const int bx = blockIdx.x * 32 + threadIdx.x % 32;
  const int by = blockIdx.y * 8 + threadIdx.x / 32;
  const float kr = (float) CV_NV12_KR, kb = (float) CV_NV12_KB;
  const float kg = 1.0f - kr - kb;
  float r = 0.0f, g = 0.0f, b = 0.0f;
  int n = 0;

  if (2 * bx >= width || 2 * by >= height)
    return;
  for (int y = 2 * by; y < 2 * by + 2 && y < height; y++)
    for (int x = 2 * bx; x < 2 * bx + 2 && x < width; x++) {
      const uchar4 p =
          reinterpret_cast<const uchar4 *> (rgba + y * rgba_pitch)[x];

      luma[y * luma_pitch + x] = (unsigned char) (16.0f
          + 219.0f * (kr * p.x + kg * p.y + kb * p.z) / 255.0f + 0.5f);
      r += p.x;
      g += p.y;
      b += p.z;
      n++;
    }
  r /= 255.0f * n;
  g /= 255.0f * n;
  b /= 255.0f * n;
  const float yl = kr * r + kg * g + kb * b;
  unsigned char *uv = chroma + by * chroma_pitch + 2 * bx;

  uv[0] = (unsigned char) (128.0f + 224.0f * (b - yl) / (2.0f * (1.0f - kb))
      + 0.5f);
  uv[1] = (unsigned char) (128.0f + 224.0f * (r - yl) / (2.0f * (1.0f - kr))
      + 0.5f);
}

template <class Codes>
cvcore_status
launch (cvcore_stream *stream, const cv_tonemap_scratch *scratch,
    const Codes &codes, int w, int h, const cvcore_tonemap_frame *dst,
    const cvcore_tonemap_params *params, double dt, bool reset)
{
  const cvcore_device *device = cvcore_stream_device (stream);
  cudaStream_t cs = cv_cuda_stream (stream);
  const bool local = params->op == CVCORE_TONEMAP_LOCAL;
  const bool nv12 = params->output == CVCORE_TONEMAP_OUT_NV12;
  const int blocks = min (h, CV_TONEMAP_MAX_PARTIALS);
  Source<Codes> in;
  Output out;
  double weights[3];

  static_cast<Codes &> (in) = codes;
  cv_tonemap_weights (params->source.primaries, weights);
  in.transfer = params->source.transfer;
  in.scale = (float) params->input_scale;
  for (int c = 0; c < 3; c++)
    in.weight[c] = (float) weights[c];
  in.to709 = params->source.primaries == CVCORE_TONEMAP_BT2020;
  out.data =
      nv12 ? scratch->rgba : static_cast<unsigned char *> (dst->plane[0].data);
  out.pitch = nv12 ? scratch->rgba_pitch : dst->plane[0].pitch;
  out.saturation = (float) params->saturation;
  out.bgr = params->output == CVCORE_TONEMAP_OUT_BGRX;

  CUDA_BIND (device);
  luminance_pass<<<blocks, kThreads, 0, cs>>> (in, w, h, (float) params->delta,
      local ? scratch->luminance : nullptr, scratch->luminance_pitch,
      scratch->partials);
  CV_CUDA_LAUNCHED ();
  adaptation_pass<<<1, kThreads, 0, cs>>> (scratch->partials, blocks,
      (double) w * h, *params, dt, reset, scratch->adaptation);
  CV_CUDA_LAUNCHED ();

  if (!local) {
    global_pass<<<dim3 ((w + 31) / 32, (h + 7) / 8), kThreads, 0, cs>>> (in,
        out, w, h, (float) (1.0 / (params->white_point * params->white_point)),
        scratch->adaptation);
    CV_CUDA_LAUNCHED ();
  } else {
    Local loc;

    loc.map = scratch->luminance;
    loc.map_pitch = scratch->luminance_pitch;
    loc.width = w;
    loc.height = h;
    loc.radius = cv_tonemap_max_radius (params);
    loc.scales = params->scales;
    loc.threshold = pow (2.0, params->phi);
    loc.epsilon = params->epsilon;
    const size_t shared =
        sizeof (double) * table_pitch (loc.radius) * table_side (loc.radius);

    CV_TRY (cv_cuda_use_shared (device, local_pass<Source<Codes>>, shared,
        "tone mapping tile"));
    local_pass<<<dim3 ((w + kTile - 1) / kTile, (h + kTile - 1) / kTile),
        kThreads, shared, cs>>> (in, out, loc, scratch->adaptation);
    CV_CUDA_LAUNCHED ();
  }

  if (nv12) {
    const int cw = (w + 1) / 2, ch = (h + 1) / 2;

    nv12_pass<<<dim3 ((cw + 31) / 32, (ch + 7) / 8), kThreads, 0, cs>>> (
        scratch->rgba, scratch->rgba_pitch, w, h,
        static_cast<unsigned char *> (dst->plane[0].data), dst->plane[0].pitch,
        static_cast<unsigned char *> (dst->plane[1].data), dst->plane[1].pitch);
    CV_CUDA_LAUNCHED ();
  }
  return CVCORE_OK;
}

template <typename T, int C>
cvcore_status
launch_packed (cvcore_stream *stream, const cv_tonemap_scratch *scratch,
    const cvcore_tonemap_frame *src, const cvcore_tonemap_frame *dst,
    const cvcore_tonemap_params *params, double dt, bool reset)
{
  Packed<T, C> codes;

  codes.data = static_cast<const unsigned char *> (src->plane[0].data);
  codes.pitch = src->plane[0].pitch;
  return launch (stream, scratch, codes, src->plane[0].width,
      src->plane[0].height, dst, params, dt, reset);
}

template <typename T, bool Semi>
cvcore_status
launch_yuv (cvcore_stream *stream, const cv_tonemap_scratch *scratch,
    const cvcore_tonemap_frame *src, const cvcore_tonemap_frame *dst,
    const cvcore_tonemap_params *params, double dt, bool reset)
{
  const cvcore_tonemap_source *s = &params->source;
  Yuv420<T, Semi> codes;

  codes.luma = static_cast<const unsigned char *> (src->plane[0].data);
  codes.luma_pitch = src->plane[0].pitch;
  codes.cb = static_cast<const unsigned char *> (src->plane[1].data);
  codes.cb_pitch = src->plane[1].pitch;
  codes.cr = static_cast<const unsigned char *> (src->plane[Semi ? 1 : 2].data);
  codes.cr_pitch = src->plane[Semi ? 1 : 2].pitch;
  codes.shift = s->shift;
  codes.y_offset = (float) s->y_offset;
  codes.y_range = (float) s->y_range;
  codes.c_offset = (float) s->c_offset;
  codes.c_range = (float) s->c_range;
  codes.kr = (float) s->kr;
  codes.kb = (float) s->kb;
  return launch (stream, scratch, codes, src->plane[0].width,
      src->plane[0].height, dst, params, dt, reset);
}

} /* namespace */

extern "C" cvcore_status
cv_tonemap_cuda (cvcore_stream *stream, cv_tonemap_scratch *scratch,
    const cvcore_tonemap_frame *src, const cvcore_tonemap_frame *dst,
    const cvcore_tonemap_params *params, double dt, bool reset)
{
  const bool wide = src->plane[0].sample == CVCORE_SAMPLE_U16;

  /* NV12 goes through an 8-bit RGBA plane, made at the first need. */
  if (params->output == CVCORE_TONEMAP_OUT_NV12 && scratch->rgba == NULL)
    CV_TRY (cvcore_plane_alloc (cvcore_stream_device (stream),
        (size_t) 4 * src->plane[0].width, src->plane[0].height,
        (void **) &scratch->rgba, &scratch->rgba_pitch));

  switch (params->source.layout) {
    case CVCORE_TONEMAP_YUV420_SEMI:
      return wide ? launch_yuv<unsigned short, true> (stream, scratch, src, dst,
                 params, dt, reset)
                  : launch_yuv<unsigned char, true> (stream, scratch, src, dst,
                      params, dt, reset);
    case CVCORE_TONEMAP_YUV420:
      return wide ? launch_yuv<unsigned short, false> (stream, scratch, src,
                 dst, params, dt, reset)
                  : launch_yuv<unsigned char, false> (stream, scratch, src, dst,
                      params, dt, reset);
    default:
      break;
  }
  if (src->plane[0].channels == 1)
    return wide ? launch_packed<unsigned short, 1> (stream, scratch, src, dst,
               params, dt, reset)
                : launch_packed<unsigned char, 1> (stream, scratch, src, dst,
                    params, dt, reset);
  return wide ? launch_packed<unsigned short, 4> (stream, scratch, src, dst,
             params, dt, reset)
              : launch_packed<unsigned char, 4> (stream, scratch, src, dst,
                  params, dt, reset);
}
