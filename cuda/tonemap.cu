/* CUDA kernels of the tone mapping. Four launches per frame, all on the
 * element's stream, nothing read back:
 *  - luminance: Lw of every pixel (kept for the local operator) and, per
 *    block, the sum and extremes of ln (delta + Lw), in a fixed order;
 *  - key: one block folds the partials and updates the adapted key in
 *    device memory;
 *  - global or local: every pixel mapped with the key read from device
 *    memory. The local kernel builds, per 64x64 tile, the summed-area table
 *    of the scaled luminance over the tile and an apron of the largest box's
 *    half-width in shared memory (double precision: box sums subtract
 *    corner values, which must keep dark pixels accurate next to
 *    lights 1e5 times brighter) and reads every box from it. */
#include <cuda_runtime.h>

#include "tonemap-common.h"
#include "tonemap-private.h"
#include "cvcore-private.h"

namespace
{

constexpr int kThreads = 256;
constexpr int kTile = 64;

template < typename T > struct SampleMax;
template <> struct SampleMax <unsigned char >
{
  static constexpr float value = 255.0f;
};
template <> struct SampleMax <unsigned short >
{
  static constexpr float value = 65535.0f;
};

/* How a kernel reads the input frame. */
template < typename T, int C > struct Input
{
  const unsigned char *data;
  size_t pitch;
  float unit;                   /* input_scale / the sample's maximum */
  float weight[3];

  __device__ __forceinline__ const T *pixel (int x, int y) const
  {
    return reinterpret_cast < const T *>(data + y * pitch) + x * C;
  }

  __device__ __forceinline__ float luminance (int x, int y) const
  {
    const T *p = pixel (x, y);

    if (C == 1)
      return unit * (float) p[0];
    return unit * (weight[0] * (float) p[0] + weight[1] * (float) p[1] +
        weight[2] * (float) p[2]);
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
  v = v <= 0.0031308f ? 12.92f * v : 1.055f * __powf (v, 1.0f / 2.4f) -
      0.055f;
  return (unsigned char) (v * 255.0f + 0.5f);
}

/* Colour of pixel (x, y) at display luminance @ld, written out. */
template < typename T, int C >
__device__ __forceinline__ void
write_pixel (const Input < T, C > &in, const Output & out, int x, int y,
    float lw, float ld)
{
  float r, g, b;
  uchar4 o;

  if (C == 1 || !(lw > 0.0f)) {
    r = g = b = lw > 0.0f ? ld : 0.0f;
  } else {
    const T *p = in.pixel (x, y);
    const float k = in.unit / lw;

    r = k * (float) p[0];
    g = k * (float) p[1];
    b = k * (float) p[2];
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
  o.w = C == 4 && !out.bgr ? (unsigned char) (in.pixel (x, y)[3] /
      SampleMax < T >::value * 255.0f + 0.5f) : 255;
  reinterpret_cast < uchar4 * >(out.data + y * out.pitch)[x] = o;
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
template < typename T, int C >
__global__ void __launch_bounds__ (kThreads)
luminance_pass (Input < T, C > in, int width, int height, float delta,
    float *map, size_t map_pitch, double *partials)
{
  double sum = 0.0;
  float lo = INFINITY, hi = -INFINITY;

  for (int y = blockIdx.x; y < height; y += gridDim.x)
    for (int x = threadIdx.x; x < width; x += kThreads) {
      const float lw = in.luminance (x, y);
      const float lg = logf (delta + lw);

      if (map)
        reinterpret_cast < float *>(reinterpret_cast < char *>(map) +
            y * map_pitch)[x] = lw;
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

__global__ void __launch_bounds__ (kThreads)
key_pass (const double *partials, int n_partials, double n_pixels,
    cvcore_tm_params params, double dt, bool reset, cvcore_tm_key * key)
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
    const cvcore_tm_key prev = *key;

    cv_tm_update_key (&params, sum, lo, hi, n_pixels, dt, reset, &prev, key);
  }
}

template < typename T, int C >
__global__ void __launch_bounds__ (kThreads)
global_pass (Input < T, C > in, Output out, int width, int height,
    float inverse_white2, const cvcore_tm_key * key)
{
  const int x = blockIdx.x * 32 + threadIdx.x % 32;
  const int y = blockIdx.y * 8 + threadIdx.x / 32;

  if (x >= width || y >= height)
    return;
  const float lw = in.luminance (x, y);
  /* Reinhard's global curve (cv_tm_global) in single precision: the
   * output has 8 bits. */
  const float l = (float) (key->scale * lw);

  write_pixel (in, out, x, y, lw, l * (1.0f + l * inverse_white2) /
      (1.0f + l));
}

struct Local
{
  const float *map;
  size_t map_pitch;
  int width, height;
  int radius;                   /* half-width of the largest box */
  int scales;
  double threshold;             /* 2^phi */
  double epsilon;

  __device__ __forceinline__ float lw (int x, int y) const
  {
    return reinterpret_cast < const float *>(reinterpret_cast <
        const char *>(map) + y * map_pitch)[x];
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

template < typename T, int C >
__global__ void __launch_bounds__ (kThreads)
local_pass (Input < T, C > in, Output out, Local loc,
    const cvcore_tm_key * key)
{
  extern __shared__ double table[];
  const int r = loc.radius, side = table_side (r), pitch = table_pitch (r);
  const int n = side - 1;       /* region: tile and apron */
  const int x0 = blockIdx.x * kTile, y0 = blockIdx.y * kTile;
  const int rx = x0 - r, ry = y0 - r;   /* region origin in the frame */
  const double scale = key->scale;

  /* table[(i + 1) pitch + j + 1]: L of region pixel (j, i), 0 outside the
   * frame; row and column 0 are zero. */
  for (int i = threadIdx.x; i < side; i += kThreads)
    table[i] = table[i * pitch] = 0.0;
  for (int k = threadIdx.x; k < n * n; k += kThreads) {
    const int i = k / n, j = k - i * n;
    const int x = rx + j, y = ry + i;

    table[(i + 1) * pitch + j + 1] = x >= 0 && x < loc.width && y >= 0
        && y < loc.height ? scale * loc.lw (x, y) : 0.0;
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

  const double threshold_scale = loc.threshold * key->exposure;
  for (int k = threadIdx.x; k < kTile * kTile; k += kThreads) {
    const int x = x0 + k % kTile, y = y0 + k / kTile;

    if (x >= loc.width || y >= loc.height)
      continue;
    const float lw = loc.lw (x, y);
    const double l = scale * lw;
    /* Average of L over box @i (clipped to the frame) from the table. */
    auto box =[&](int i) {
      const int h = cv_tm_edge (i) / 2;
      const int bx0 = max (x - h, 0), bx1 = min (x + h, loc.width - 1);
      const int by0 = max (y - h, 0), by1 = min (y + h, loc.height - 1);
      const int a0 = (by0 - ry) * pitch, a1 = (by1 - ry + 1) * pitch;
      const int b0 = bx0 - rx, b1 = bx1 - rx + 1;
      const double sum = table[a1 + b1] - table[a0 + b1] - table[a1 + b0] +
          table[a0 + b0];
      const int area = (bx1 - bx0 + 1) * (by1 - by0 + 1);

      return area == cv_tm_edge (i) * cv_tm_edge (i) ?
          sum * cv_tm_inverse_area (i) : sum / area;
    };
    /* The walk of the CPU reference (tonemap.c), unrolled so that nothing
     * is indexed at run time. */
    double centre = l, vc = l;

#pragma unroll
    for (int i = 0; i + 1 < CVCORE_TM_MAX_SCALES; i++) {
      if (i + 1 >= loc.scales)
        break;
      const double vs = box (i + 1);

      if (!cv_tm_keeps_walking (vc, vs, i, threshold_scale, loc.epsilon))
        break;
      centre = vc;
      vc = vs;
    }
    write_pixel (in, out, x, y, lw, (float) l / (1.0f + (float) centre));
  }
}

template < typename T, int C >
cvcore_status
launch (cvcore_stream * stream, const cv_tm_scratch * scratch,
    const cvcore_image * src, const cvcore_image * dst,
    const cvcore_tm_params * params, double dt, bool reset)
{
  const cvcore_device *device = cvcore_stream_device (stream);
  cudaStream_t cs = static_cast < cudaStream_t > (cvcore_stream_handle
      (stream));
  const int w = src->width, h = src->height;
  const bool local = params->op == CVCORE_TM_LOCAL;
  const int blocks = min (h, CV_TM_MAX_PARTIALS);
  Input < T, C > in;
  Output out;
  double weights[3];

  cv_tm_weights (params->primaries, weights);
  in.data = static_cast < const unsigned char *>(src->data);
  in.pitch = src->pitch;
  in.unit = (float) (params->input_scale / SampleMax < T >::value);
  for (int c = 0; c < 3; c++)
    in.weight[c] = (float) weights[c];
  out.data = static_cast < unsigned char *>(dst->data);
  out.pitch = dst->pitch;
  out.saturation = (float) params->saturation;
  out.bgr = params->dst_bgr;

  CUDA_TRY (cudaSetDevice (device->id));
  luminance_pass < T, C > <<<blocks, kThreads, 0, cs >>> (in, w, h,
      (float) params->delta, local ? scratch->luminance : nullptr,
      scratch->luminance_pitch, scratch->partials);
  CUDA_TRY (cudaGetLastError ());
  key_pass <<<1, kThreads, 0, cs >>> (scratch->partials, blocks,
      (double) w * h, *params, dt, reset, scratch->key);
  CUDA_TRY (cudaGetLastError ());

  if (!local) {
    global_pass < T, C > <<<dim3 ((w + 31) / 32, (h + 7) / 8), kThreads, 0,
        cs >>> (in, out, w, h, (float) (1.0 / (params->white_point *
                params->white_point)), scratch->key);
    CUDA_TRY (cudaGetLastError ());
    return CVCORE_OK;
  }

  Local loc;
  loc.map = scratch->luminance;
  loc.map_pitch = scratch->luminance_pitch;
  loc.width = w;
  loc.height = h;
  loc.radius = cv_tm_max_radius (params);
  loc.scales = params->scales;
  loc.threshold = pow (2.0, params->phi);
  loc.epsilon = params->epsilon;
  const size_t shared = sizeof (double) * table_pitch (loc.radius) *
      table_side (loc.radius);

  if (shared > device->shared_per_block_optin)
    return cvcore_fail (CVCORE_ERROR_INVALID_VALUE,
        "tone mapping tile of %zu bytes exceeds the device's shared memory",
        shared);
  if (shared > 48 * 1024)
    CUDA_TRY (cudaFuncSetAttribute (local_pass < T, C >,
            cudaFuncAttributeMaxDynamicSharedMemorySize, (int) shared));
  local_pass < T, C > <<<dim3 ((w + kTile - 1) / kTile,
          (h + kTile - 1) / kTile), kThreads, shared, cs >>> (in, out, loc,
      scratch->key);
  CUDA_TRY (cudaGetLastError ());
  return CVCORE_OK;
}

}                               /* namespace */

extern "C" cvcore_status
cvcore_cuda_tonemap (cvcore_stream * stream, const cv_tm_scratch * scratch,
    const cvcore_image * src, const cvcore_image * dst,
    const cvcore_tm_params * params, double dt, bool reset)
{
  const bool wide = src->sample == CVCORE_SAMPLE_U16;

  if (src->channels == 1)
    return wide ? launch < unsigned short, 1 > (stream, scratch, src, dst,
        params, dt, reset) : launch < unsigned char, 1 > (stream, scratch,
        src, dst, params, dt, reset);
  return wide ? launch < unsigned short, 4 > (stream, scratch, src, dst,
      params, dt, reset) : launch < unsigned char, 4 > (stream, scratch, src,
      dst, params, dt, reset);
}
