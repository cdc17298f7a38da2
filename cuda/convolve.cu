/* CUDA kernels of the convolution.
 *
 * Dense kernels: one block computes a tile of 32 x (8 * ROWS) outputs. All
 * its threads first load the tile plus its apron (border rules applied) into
 * shared memory as float, cooperatively, then each thread computes ROWS
 * vertically adjacent outputs of every channel, so each shared-memory value
 * it reads feeds up to ROWS multiply-adds. Taps travel as kernel parameters,
 * which live in the constant bank and are broadcast to the warp; kernels of
 * 3x3 and 5x5 taps are compiled with their size known, fully unrolled.
 * Rank-1 kernels run as a row pass into a float scratch plane and a column
 * pass. When the tile does not fit in shared memory, a direct kernel reads
 * global memory through the cache.
 */
#include <cuda_runtime.h>

#include "convolve-common.h"
#include "convolve-private.h"
#include "cvcore-private.h"

namespace
{

constexpr int kBlockW = 32;
constexpr int kBlockH = 8;

template <int N> struct Taps
{
  float w[N];
};

struct Geometry
{
  const unsigned char *src;
  unsigned char *dst;
  size_t src_pitch, dst_pitch;
  int width, height;
  int kw, kh, ax, ay;
  unsigned mask;
  float divisor, bias, border_value;
  cvcore_border border;
};

template <typename T, int C>
__device__ __forceinline__ void
load_pixel (const Geometry & g, int x, int y, float v[C])
{
  const int bx = cv_border_index (x, g.width, g.border);
  const int by = cv_border_index (y, g.height, g.border);

  if (bx < 0 || by < 0) {
#pragma unroll
    for (int c = 0; c < C; c++)
      v[c] = g.border_value;
    return;
  }
  const T *p = reinterpret_cast < const T *>(g.src + by * g.src_pitch) +
      bx * C;
  if constexpr (sizeof (T) == 1 && C == 4) {
    const uchar4 q = *reinterpret_cast < const uchar4 *>(p);
    v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
  } else {
#pragma unroll
    for (int c = 0; c < C; c++)
      v[c] = p[c];
  }
}

__device__ __forceinline__ int
finish (float acc, const Geometry & g, int max_value)
{
  return cv_finish_float (acc, g.divisor, g.bias, max_value);
}

__device__ __forceinline__ int
finish (double acc, const Geometry & g, int max_value)
{
  return cv_finish_double (acc, g.divisor, g.bias, max_value);
}

template <typename T, int C, typename Acc>
__device__ __forceinline__ void
store_pixel (const Geometry & g, int x, int y, const Acc acc[C])
{
  constexpr int max_value = sizeof (T) == 1 ? 255 : 65535;
  constexpr unsigned all = (1u << C) - 1;
  T out[C];
  const T *in = reinterpret_cast < const T *>(g.src + y * g.src_pitch) + x * C;

#pragma unroll
  for (int c = 0; c < C; c++)
    out[c] = (T) finish (acc[c], g, max_value);
  if ((g.mask & all) != all) {
#pragma unroll
    for (int c = 0; c < C; c++)
      if (!(g.mask & (1u << c)))
        out[c] = in[c];
  }
  T *p = reinterpret_cast < T * >(g.dst + y * g.dst_pitch) + x * C;
  if constexpr (sizeof (T) == 1 && C == 4) {
    *reinterpret_cast < uchar4 * >(p) = make_uchar4 (out[0], out[1], out[2],
        out[3]);
  } else {
#pragma unroll
    for (int c = 0; c < C; c++)
      p[c] = out[c];
  }
}

template <int C>
__device__ __forceinline__ void
load_tile_value (const float *p, float v[C])
{
  if constexpr (C == 4) {
    const float4 q = *reinterpret_cast < const float4 *>(p);
    v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
  } else if constexpr (C == 2) {
    const float2 q = *reinterpret_cast < const float2 *>(p);
    v[0] = q.x, v[1] = q.y;
  } else {
    v[0] = p[0];
  }
}

/* KW, KH: tap counts when known at compile time, 0 for run time. */
template <typename T, int C, typename Acc, int KW, int KH, int ROWS, int N>
__global__ void __launch_bounds__ (kBlockW * kBlockH)
dense_tiled (Geometry g, Taps<N> taps)
{
  extern __shared__ float4 shared[];
  float *tile = reinterpret_cast < float *>(shared);
  const int kw = KW ? KW : g.kw, kh = KH ? KH : g.kh;
  const int tw = kBlockW + kw - 1, th = kBlockH * ROWS + kh - 1;
  const int ox = blockIdx.x * kBlockW, oy = blockIdx.y * kBlockH * ROWS;
  const int tid = threadIdx.y * kBlockW + threadIdx.x;

  for (int i = tid; i < tw * th; i += kBlockW * kBlockH) {
    const int ty = i / tw, tx = i - ty * tw;
    float v[C];

    load_pixel<T, C> (g, ox + tx - g.ax, oy + ty - g.ay, v);
#pragma unroll
    for (int c = 0; c < C; c++)
      tile[i * C + c] = v[c];
  }
  __syncthreads ();

  Acc acc[ROWS][C];
#pragma unroll
  for (int r = 0; r < ROWS; r++)
#pragma unroll
    for (int c = 0; c < C; c++)
      acc[r][c] = 0;

  const int r0 = threadIdx.y * ROWS;
  /* Tile row r0 + t feeds output row r through tap row t - r. */
#pragma unroll
  for (int t = 0; t < kh + ROWS - 1; t++) {
    const float *row = tile + ((r0 + t) * tw + threadIdx.x) * C;
#pragma unroll
    for (int i = 0; i < kw; i++) {
      float v[C];

      load_tile_value<C> (row + i * C, v);
#pragma unroll
      for (int r = 0; r < ROWS; r++) {
        const int j = t - r;

        if (j >= 0 && j < kh) {
          const Acc w = taps.w[j * kw + i];
#pragma unroll
          for (int c = 0; c < C; c++)
            acc[r][c] += w * (Acc) v[c];
        }
      }
    }
  }

  const int x = ox + threadIdx.x;
#pragma unroll
  for (int r = 0; r < ROWS; r++) {
    const int y = oy + r0 + r;

    if (x < g.width && y < g.height)
      store_pixel<T, C, Acc> (g, x, y, acc[r]);
  }
}

/* One output per thread, straight from global memory. */
template <typename T, int C, typename Acc, int N>
__global__ void __launch_bounds__ (kBlockW * kBlockH)
dense_direct (Geometry g, Taps<N> taps)
{
  const int x = blockIdx.x * kBlockW + threadIdx.x;
  const int y = blockIdx.y * kBlockH + threadIdx.y;
  Acc acc[C];

  if (x >= g.width || y >= g.height)
    return;
#pragma unroll
  for (int c = 0; c < C; c++)
    acc[c] = 0;
  for (int j = 0; j < g.kh; j++)
    for (int i = 0; i < g.kw; i++) {
      const Acc w = taps.w[j * g.kw + i];
      float v[C];

      load_pixel<T, C> (g, x - g.ax + i, y - g.ay + j, v);
#pragma unroll
      for (int c = 0; c < C; c++)
        acc[c] += w * (Acc) v[c];
    }
  store_pixel<T, C, Acc> (g, x, y, acc);
}

/* Separable, first pass: the row taps along x, into a float plane of
 * width x height x C. */
template <typename T, int C>
__global__ void __launch_bounds__ (kBlockW * kBlockH)
separable_rows (Geometry g, Taps<CVCORE_CONV_MAX_SIZE> row, float *tmp)
{
  const int x = blockIdx.x * kBlockW + threadIdx.x;
  const int y = blockIdx.y * kBlockH + threadIdx.y;
  float acc[C];

  if (x >= g.width || y >= g.height)
    return;
#pragma unroll
  for (int c = 0; c < C; c++)
    acc[c] = 0.0f;
  for (int i = 0; i < g.kw; i++) {
    float v[C];

    /* y is inside: only x meets the border */
    load_pixel<T, C> (g, x - g.ax + i, y, v);
#pragma unroll
    for (int c = 0; c < C; c++)
      acc[c] += row.w[i] * v[c];
  }
#pragma unroll
  for (int c = 0; c < C; c++)
    tmp[((size_t) y * g.width + x) * C + c] = acc[c];
}

/* Separable, second pass: the column taps along y over the first pass. */
template <typename T, int C>
__global__ void __launch_bounds__ (kBlockW * kBlockH)
separable_columns (Geometry g, Taps<CVCORE_CONV_MAX_SIZE> column,
    const float *tmp, float border_row_sum)
{
  const int x = blockIdx.x * kBlockW + threadIdx.x;
  const int y = blockIdx.y * kBlockH + threadIdx.y;
  float acc[C];

  if (x >= g.width || y >= g.height)
    return;
#pragma unroll
  for (int c = 0; c < C; c++)
    acc[c] = 0.0f;
  for (int j = 0; j < g.kh; j++) {
    const int by = cv_border_index (y - g.ay + j, g.height, g.border);
    const float *p = tmp + ((size_t) by * g.width + x) * C;

#pragma unroll
    for (int c = 0; c < C; c++)
      acc[c] += column.w[j] * (by < 0 ? border_row_sum : __ldg (p + c));
  }
  store_pixel<T, C, float> (g, x, y, acc);
}

template <int N>
Taps<N>
make_taps (const float *w, int n)
{
  Taps<N> taps = { };

  for (int i = 0; i < n && i < N; i++)
    taps.w[i] = w[i];
  return taps;
}

dim3
grid_for (const Geometry & g, int rows_per_block)
{
  return dim3 ((g.width + kBlockW - 1) / kBlockW,
      (g.height + rows_per_block - 1) / rows_per_block);
}

template <typename T, int C, typename Acc, int KW, int KH, int N>
cvcore_status
launch_dense (cudaStream_t stream, size_t shared_limit, const Geometry & g,
    const cvcore_conv_plan * plan)
{
  constexpr int rows = C == 4 ? 4 : 8;
  const Taps<N> taps = make_taps<N> (plan->taps, plan->width * plan->height);
  const size_t shared = (size_t) (kBlockW + g.kw - 1) *
      (kBlockH * rows + g.kh - 1) * C * sizeof (float);
  auto kernel = dense_tiled<T, C, Acc, KW, KH, rows, N>;

  /* Beyond 48 KiB a kernel must opt in to more shared memory. */
  if (shared > 48 * 1024 && shared <= shared_limit)
    CUDA_TRY (cudaFuncSetAttribute (kernel,
            cudaFuncAttributeMaxDynamicSharedMemorySize, (int) shared));
  if (shared <= shared_limit) {
    kernel <<< grid_for (g, kBlockH * rows), dim3 (kBlockW, kBlockH), shared,
        stream >>> (g, taps);
  } else {
    dense_direct<T, C, Acc, N> <<< grid_for (g, kBlockH), dim3 (kBlockW,
        kBlockH), 0, stream >>> (g, taps);
  }
  CUDA_TRY (cudaGetLastError ());
  return CVCORE_OK;
}

template <typename T, int C>
cvcore_status
launch (cudaStream_t stream, size_t shared_limit, const Geometry & g,
    const cvcore_conv_plan * plan, void *scratch)
{
  if (plan->separable) {
    const dim3 grid = grid_for (g, kBlockH), block (kBlockW, kBlockH);

    separable_rows<T, C> <<< grid, block, 0, stream >>> (g,
        make_taps<CVCORE_CONV_MAX_SIZE> (plan->row, plan->width),
        static_cast < float *>(scratch));
    CUDA_TRY (cudaGetLastError ());
    separable_columns<T, C> <<< grid, block, 0, stream >>> (g,
        make_taps<CVCORE_CONV_MAX_SIZE> (plan->column, plan->height),
        static_cast < const float *>(scratch), cv_border_row_sum (plan));
    CUDA_TRY (cudaGetLastError ());
    return CVCORE_OK;
  }
  if (plan->use_double)
    return launch_dense<T, C, double, 0, 0, CVCORE_CONV_MAX_TAPS> (stream,
        shared_limit, g, plan);
  if (plan->width == 3 && plan->height == 3)
    return launch_dense<T, C, float, 3, 3, 9> (stream, shared_limit, g, plan);
  if (plan->width == 5 && plan->height == 5)
    return launch_dense<T, C, float, 5, 5, 25> (stream, shared_limit, g, plan);
  return launch_dense<T, C, float, 0, 0, CVCORE_CONV_MAX_TAPS> (stream,
      shared_limit, g, plan);
}

template <typename T>
cvcore_status
launch_channels (cudaStream_t stream, size_t shared_limit,
    const Geometry & g,
    int channels, const cvcore_conv_plan * plan, void *scratch)
{
  switch (channels) {
    case 1:
      return launch<T, 1> (stream, shared_limit, g, plan, scratch);
    case 2:
      return launch<T, 2> (stream, shared_limit, g, plan, scratch);
    default:
      return launch<T, 4> (stream, shared_limit, g, plan, scratch);
  }
}

}                               /* namespace */

extern "C" cvcore_status
cvcore_cuda_convolve (cvcore_stream * stream, const cvcore_image * src,
    const cvcore_image * dst, unsigned channel_mask,
    const cvcore_conv_plan * plan, void *scratch)
{
  const cvcore_device *device = cvcore_stream_device (stream);
  cudaStream_t handle = static_cast < cudaStream_t >
      (cvcore_stream_handle (stream));
  Geometry g;

  g.src = static_cast < const unsigned char *>(src->data);
  g.dst = static_cast < unsigned char *>(dst->data);
  g.src_pitch = src->pitch;
  g.dst_pitch = dst->pitch;
  g.width = src->width;
  g.height = src->height;
  g.kw = plan->width;
  g.kh = plan->height;
  g.ax = plan->anchor_x;
  g.ay = plan->anchor_y;
  g.mask = channel_mask;
  g.divisor = plan->divisor;
  g.bias = plan->bias;
  g.border_value = plan->border_value;
  g.border = plan->border;

  CUDA_TRY (cudaSetDevice (device->id));
  if (src->sample == CVCORE_SAMPLE_U8)
    return launch_channels<unsigned char> (handle,
        device->shared_per_block_optin, g, src->channels, plan, scratch);
  return launch_channels<unsigned short> (handle,
      device->shared_per_block_optin, g, src->channels, plan, scratch);
}
