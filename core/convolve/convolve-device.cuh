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

/* Device-side pieces shared by the convolution's CUDA kernels: the frame
 * geometry they receive, pixel loads with the border rules, and the final
 * rounding and store that must match the CPU reference. */
#ifndef CONVOLVE_DEVICE_CUH
#define CONVOLVE_DEVICE_CUH

#include <cuda_runtime.h>

#include <type_traits>

#include "convolve-common.h"
#include "cvcore-private.h"

namespace cv_convolve {

struct Geometry
{
  const unsigned char *src;
  unsigned char *dst;
  size_t src_pitch, dst_pitch;
  int width, height;
  int kw, kh, ax, ay;
  unsigned mask;
  float divisor, reciprocal, bias, bias_half, border_value;
  cvcore_border border;
  /* the device's, for the launches that shape their grids to it */
  int multiprocessors;
};

template <int N>
struct Taps
{
  float w[N];
};

template <int N>
Taps<N>
make_taps (const float *w, int n)
{
  Taps<N> taps = {};

  for (int i = 0; i < n && i < N; i++)
    taps.w[i] = w[i];
  return taps;
}

/* A sample (at most 16 bits, in the low bits of @bits) as a float. The
 * conversion unit is a quarter-rate pipe; placed in the mantissa of 2^23
 * the sample is exact, and one subtraction leaves it. */
__device__ __forceinline__ float
sample_to_float (unsigned bits)
{
  return __int_as_float (0x4B000000u | bits) - 8388608.0f;
}

/* Byte @k of @word next to the exponent of 2^23 (bytes 4-7 of the
 * permutation are those of 0x4B000000). */
__device__ __forceinline__ float
byte_to_float (unsigned word, int k)
{
  return __int_as_float (__byte_perm (word, 0x4B000000u, 0x7650 | k))
      - 8388608.0f;
}

/* Half-word @h of @word, likewise. */
__device__ __forceinline__ float
half_word_to_float (unsigned word, int h)
{
  return __int_as_float (
             __byte_perm (word, 0x4B000000u, 0x7600 | (2 * h + 1) << 4 | 2 * h))
      - 8388608.0f;
}

/* The bits of one pixel of @C samples of type @T, loaded in one access. */
template <int BYTES>
struct PixelBits;
template <>
struct PixelBits<1>
{
  using Type = unsigned char;
};
template <>
struct PixelBits<2>
{
  using Type = unsigned short;
};
template <>
struct PixelBits<4>
{
  using Type = unsigned;
};
template <>
struct PixelBits<8>
{
  using Type = uint2;
};

template <typename T, int C>
using RawPixel = typename PixelBits<sizeof (T) * C>::Type;

/* One pixel's bits at @p, through the read-only cache. */
template <typename T, int C>
__device__ __forceinline__ RawPixel<T, C>
load_raw (const T *p)
{
  return __ldg (reinterpret_cast<const RawPixel<T, C> *> (p));
}

/* The samples of a pixel loaded by load_raw(), as floats. */
template <typename T, int C>
__device__ __forceinline__ void
unpack (RawPixel<T, C> bits, float v[C])
{
  if constexpr (sizeof (T) == 2 && C == 4) {
#pragma unroll
    for (int c = 0; c < 4; c++)
      v[c] = half_word_to_float (c < 2 ? bits.x : bits.y, c & 1);
  } else if constexpr (sizeof (T) * C == 4) {
#pragma unroll
    for (int c = 0; c < C; c++)
      v[c] = sizeof (T) == 1 ? byte_to_float (bits, c)
                             : half_word_to_float (bits, c);
  } else if constexpr (sizeof (T) == 1 && C == 2) {
    v[0] = sample_to_float (bits & 0xff);
    v[1] = sample_to_float (bits >> 8);
  } else {
    v[0] = sample_to_float (bits);
  }
}

/* The @C samples at @p, through the read-only cache, in one access. */
template <typename T, int C>
__device__ __forceinline__ void
load_vector (const T *p, float v[C])
{
  unpack<T, C> (load_raw<T, C> (p), v);
}

/* Pixel (@bx, @by) after the border rule has been applied to both: -1 in
 * either stands for the constant border. */
template <typename T, int C>
__device__ __forceinline__ void
load_resolved (const Geometry &g, int bx, int by, float v[C])
{
  if (bx < 0 || by < 0) {
#pragma unroll
    for (int c = 0; c < C; c++)
      v[c] = g.border_value;
    return;
  }
  load_vector<T, C> (reinterpret_cast<const T *> (g.src + by * g.src_pitch)
          + bx * C,
      v);
}

/* Pixel (@x, @y), which may lie outside the frame. */
template <typename T, int C>
__device__ __forceinline__ void
load_pixel (const Geometry &g, int x, int y, float v[C])
{
  load_resolved<T, C> (g, cv_border_index (x, g.width, g.border),
      cv_border_index (y, g.height, g.border), v);
}

__device__ __forceinline__ int
finish (float acc, const Geometry &g, int max_value)
{
  return cv_finish_float (acc, g.divisor, g.reciprocal, g.bias_half, max_value);
}

__device__ __forceinline__ int
finish (double acc, const Geometry &g, int max_value)
{
  return cv_finish_double (acc, g.divisor, g.bias, max_value);
}

/* floor(@v) saturated to 0 to 255 (NaN to 0), as cv_finish_float() rounds
 * and saturates: one conversion instead of two comparisons and an add. */
__device__ __forceinline__ unsigned
floor_to_byte (float v)
{
  unsigned byte;

  asm("cvt.rmi.sat.u8.f32 %0, %1;" : "=r"(byte) : "f"(v));
  return byte;
}

template <typename T>
__host__ __device__ constexpr int
sample_max ()
{
  return sizeof (T) == 1 ? 255 : 65535;
}

/* Writes @out to the pixel at @p whose source pixel is at @in; channels
 * outside the mask keep the source's samples. */
template <typename T, int C>
__device__ __forceinline__ void
store_samples_at (const Geometry &g, const T *in, T *p, T out[C])
{
  constexpr unsigned all = (1u << C) - 1;

  if ((g.mask & all) != all) {
#pragma unroll
    for (int c = 0; c < C; c++)
      if (!(g.mask & (1u << c)))
        out[c] = in[c];
  }
  if constexpr (sizeof (T) == 1 && C == 4) {
    *reinterpret_cast<uchar4 *> (p) =
        make_uchar4 (out[0], out[1], out[2], out[3]);
  } else if constexpr (sizeof (T) == 2 && C == 4) {
    *reinterpret_cast<ushort4 *> (p) =
        make_ushort4 (out[0], out[1], out[2], out[3]);
  } else {
#pragma unroll
    for (int c = 0; c < C; c++)
      p[c] = out[c];
  }
}

/* Writes @out to pixel (@x, @y), as store_samples_at(). */
template <typename T, int C>
__device__ __forceinline__ void
store_samples (const Geometry &g, int x, int y, T out[C])
{
  store_samples_at<T, C> (g,
      reinterpret_cast<const T *> (g.src + y * g.src_pitch) + x * C,
      reinterpret_cast<T *> (g.dst + y * g.dst_pitch) + x * C, out);
}

/* Rounds, saturates and writes the sums @acc of pixel (@x, @y). */
template <typename T, int C, typename Acc>
__device__ __forceinline__ void
store_pixel (const Geometry &g, int x, int y, const Acc acc[C])
{
  T out[C];

#pragma unroll
  for (int c = 0; c < C; c++)
    out[c] = (T) finish (acc[c], g, sample_max<T> ());
  store_samples<T, C> (g, x, y, out);
}

/* --- paths in their own files ------------------------------------------ */

/* The largest sum of the taps' magnitudes whose 8-bit sums the integer
 * paths take: times 255 within CV_INT_FINISH_MAX_SUM, where the integer
 * rounding (cv_finish_int) gives cv_finish_float()'s results. */
constexpr int kPackedMaxAbsSum = 128;

/* Whether every one of @plan's taps is a whole number. */
bool taps_are_whole (const cvcore_convolve_plan *plan);

/* Whether @plan's taps are whole numbers within kPackedMaxAbsSum, with a
 * whole constant border: sums that integer arithmetic holds exactly and
 * rounds as the reference does. */
bool packed_suits (const cvcore_convolve_plan *plan);

/* Square kernels of 1, 3 or 5 taps a side. */
cvcore_status launch_small (cudaStream_t stream, const Geometry &g,
    int channels, bool wide_samples, const cvcore_convolve_plan *plan);

/* Whether @plan, a 3x3 or 5x5 kernel on an 8-bit gray frame, goes
 * through launch_gray_tile(). */
bool gray_tile_suits (const Geometry &g, const cvcore_convolve_plan *plan);

/* 3x3 and 5x5 kernels on 8-bit gray frames, through a float tile in shared
 * memory. */
cvcore_status launch_gray_tile (cudaStream_t stream, const Geometry &g,
    const cvcore_convolve_plan *plan);

/* Rank-1 kernels: row pass into shared memory, column pass from it, in one
 * kernel. */
cvcore_status launch_separable (cudaStream_t stream,
    const cvcore_device *device, const Geometry &g, int channels,
    bool wide_samples, const cvcore_convolve_plan *plan);

/* The taps as the tensor cores take them: scaled by a power of two, split
 * into high and low halves when half precision cannot hold them. */
struct MmaTaps
{
  bool split;
  float scale;
};

/* Whether the tensor-core path can compute @plan on 8-bit frames with the
 * same results as the CPU reference (exactly for integer taps) within the
 * device's shared memory; fills @taps when it can. */
bool mma_prepare (const cvcore_device *device, const cvcore_convolve_plan *plan,
    MmaTaps *taps);

/* Dense kernels on 8-bit frames with the tensor cores, for taps
 * mma_prepare () accepted. */
cvcore_status launch_dense_mma (cudaStream_t stream,
    const cvcore_device *device, const Geometry &g, int channels,
    const cvcore_convolve_plan *plan, const MmaTaps &taps);

/* @launch (std::integral_constant<int, C> ()) for C the channel count
 * (1, 2, or 4 for anything else). */
template <typename Launch>
cvcore_status
with_channels (int channels, Launch launch)
{
  switch (channels) {
    case 1:
      return launch (std::integral_constant<int, 1> ());
    case 2:
      return launch (std::integral_constant<int, 2> ());
    default:
      return launch (std::integral_constant<int, 4> ());
  }
}

} /* namespace cv_convolve */

#endif /* CONVOLVE_DEVICE_CUH */
