/* CUDA kernel of the block-wise foveation: one block per fragment, as a
 * one-dimensional line of threads that reshapes itself for each stage. For
 * every channel the block loads its padded tile (8-bit, edges clamped) into
 * shared memory, runs the row taps into a float intermediate in shared
 * memory, then the column taps into the frame. Which filter a block uses,
 * its taps and the arithmetic are the CPU reference's (foveate-common.h);
 * the plan, bank included, travels as a grid-constant kernel parameter. */
#include <cuda_runtime.h>

#include "foveate-common.h"
#include "cvcore-private.h"

namespace
{

constexpr int kThreads = 256;
/* Outputs per thread and pass. */
constexpr int kGroup = 8;

/* An 8-bit sample as a float without the quarter-rate converter: in the
 * mantissa of 2^23 it is exact. */
__device__ __forceinline__ float
byte_to_float (unsigned char v)
{
  return __int_as_float (0x4B000000 | v) - 8388608.0f;
}

/* acc[j] = sum over k of tap[k] * load (j + k), j < kGroup, each sum in
 * tap order (the CPU reference's); every loaded sample serves kGroup
 * multiply-adds. */
template <typename Load>
__device__ __forceinline__ void
sliding_sums (const float *tap, int taps, float acc[kGroup], Load load)
{
  float v[kGroup];

#pragma unroll
  for (int j = 0; j < kGroup; j++)
    acc[j] = 0.0f;
#pragma unroll
  for (int j = 0; j < kGroup - 1; j++)
    v[j] = load (j);
  for (int k = 0; k < taps; k++) {
    const float t = tap[k];

    v[kGroup - 1] = load (k + kGroup - 1);
#pragma unroll
    for (int j = 0; j < kGroup; j++)
      acc[j] += t * v[j];
#pragma unroll
    for (int j = 0; j < kGroup - 1; j++)
      v[j] = v[j + 1];
  }
}

struct Frame
{
  const unsigned char *src;
  unsigned char *dst;
  size_t src_pitch, dst_pitch;
  int channels;
  unsigned mask;
  int band;                     /* padded-tile rows held at once */
};

/* Filter @f of channel @c over the fragment's pixels (w x h from (x0, y0)):
 * the padded 8-bit tile into shared memory (in bands of frame.band rows
 * when it does not fit whole), rows into @rows, columns handed to @emit
 * (y, x, value) in frame coordinates; filter 0 hands over the samples. */
template < typename Emit >
__device__ __forceinline__ void
blur_fragment (const Frame & frame, const cvcore_fov_plan & plan, int f,
    int c, int x0, int y0, int w, int h, float *rows, unsigned char *tile,
    Emit emit)
{
  const int size = plan.fragment, nc = frame.channels;

  if (f == 0) {
    for (int i = threadIdx.x; i < w * h; i += kThreads) {
      const int y = y0 + i / w, x = x0 + i % w;

      emit (y, x, byte_to_float (frame.src[y * frame.src_pitch + x * nc +
                  c]));
    }
    return;
  }

  const int r = plan.radius[f], taps = 2 * r + 1;
  const float *tap = plan.taps + plan.offset[f];
  const int tw = w + 2 * r, th = h + 2 * r;

  const int wq = (w + kGroup - 1) / kGroup;

  for (int band = 0; band < th; band += frame.band) {
    const int bh = min (frame.band, th - band);

    /* The previous pass is done with the shared arrays. */
    __syncthreads ();
    for (int i = threadIdx.x; i < tw * bh; i += kThreads) {
      const int ty = i / tw, tx = i - ty * tw;
      const int sy = cv_clamp_index (y0 - r + band + ty, plan.height);
      const int sx = cv_clamp_index (x0 - r + tx, plan.width);

      tile[i] = frame.src[sy * frame.src_pitch + sx * nc + c];
    }
    __syncthreads ();
    /* Rows: kGroup neighbouring outputs per thread, so each tile sample
     * read serves kGroup multiply-adds (each output's sum still runs over
     * the taps in order, as on the CPU). Reads past the row's end feed
     * outputs past the fragment, which are not stored. */
    for (int i = threadIdx.x; i < bh * wq; i += kThreads) {
      const int ty = i / wq, x = (i - ty * wq) * kGroup;
      const unsigned char *p = tile + ty * tw + x;
      float acc[kGroup];

      sliding_sums (tap, taps, acc,[p] (int i) {
          return byte_to_float (p[i]);});
#pragma unroll
      for (int j = 0; j < kGroup; j++)
        if (x + j < w)
          rows[(band + ty) * size + x + j] = acc[j];
    }
  }
  __syncthreads ();
  /* Columns: kGroup outputs stacked per thread, likewise. */
  const int hq = (h + kGroup - 1) / kGroup;
  for (int i = threadIdx.x; i < hq * w; i += kThreads) {
    const int y = i / w * kGroup, x = i % w;
    const float *p = rows + y * size + x;
    float acc[kGroup];

    sliding_sums (tap, taps, acc,[p, size] (int i) {
        return p[i * size];});
#pragma unroll
    for (int j = 0; j < kGroup; j++)
      if (y + j < h)
        emit (y0 + y + j, x0 + x, acc[j]);
  }
}

__global__ void __launch_bounds__ (kThreads)
foveate_fragments (Frame frame, const __grid_constant__ cvcore_fov_plan plan)
{
  extern __shared__ float4 shared[];
  const int size = plan.fragment;
  const int bx = plan.origin_x + blockIdx.x * size;
  const int by = plan.origin_y + blockIdx.y * size;
  const int x0 = max (bx, 0), y0 = max (by, 0);
  const int w = min (bx + size, plan.width) - x0;
  const int h = min (by + size, plan.height) - y0;
  const int blur_filter = cv_fov_filter (&plan, blockIdx.x, blockIdx.y);
  const int nc = frame.channels;
  float *sums = reinterpret_cast < float *>(shared);
  float *rows = sums + size * size;
  unsigned char *tile = reinterpret_cast < unsigned char *>(rows +
      (size + 2 * plan.max_radius + kGroup - 1) * size);

  for (int c = 0; c < nc; c++) {
    const bool blur = frame.mask >> c & 1;
    unsigned char *dst = frame.dst + c;

    if (!blur || !plan.smooth) {
      blur_fragment (frame, plan, blur ? blur_filter : 0, c, x0, y0, w, h,
          rows, tile,[&] (int y, int x, float v) {
          dst[y * frame.dst_pitch + x * nc] = (unsigned char) cv_fov_round (v);}
      );
      continue;
    }
    /* smooth: every filter the fragment's pixels blend, weighted, summed
     * in filter order per pixel (each pixel has one thread per filter) */
    int lo, hi;

    cv_fov_blend_range (&plan, x0, y0, x0 + w, y0 + h, &lo, &hi);
    __syncthreads ();
    for (int i = threadIdx.x; i < size * size; i += kThreads)
      sums[i] = 0.0f;
    __syncthreads ();
    for (int f = lo; f <= hi; f++) {
      blur_fragment (frame, plan, f, c, x0, y0, w, h, rows, tile,
          [&] (int y, int x, float v) {
          sums[(y - y0) * size + x - x0] += cv_fov_blend_weight (&plan, x, y,
              f) * v;}
      );
      __syncthreads ();
    }
    for (int i = threadIdx.x; i < w * h; i += kThreads) {
      const int y = y0 + i / w, x = x0 + i % w;

      dst[y * frame.dst_pitch + x * nc] = (unsigned char)
          cv_fov_round (sums[(y - y0) * size + x - x0]);
    }
  }
}

}                               /* namespace */

extern "C" cvcore_status
cvcore_cuda_foveate (cvcore_stream * stream, const cvcore_image * src,
    const cvcore_image * dst, unsigned channel_mask,
    const cvcore_fov_plan * plan)
{
  const cvcore_device *device = cvcore_stream_device (stream);
  const int span = plan->fragment + 2 * plan->max_radius;
  /* Smooth mode's sums and the rows, with room for the reads past their
   * end that the output groups make, then the tile: whole where it fits,
   * else in bands of as many rows as fit. */
  const size_t fixed = ((size_t) (span + kGroup - 1) * plan->fragment +
      (size_t) plan->fragment * plan->fragment) * sizeof (float) + kGroup;
  const size_t room = device->shared_per_block_optin > fixed ?
      device->shared_per_block_optin - fixed : 0;
  const int band = (int) (room / span < (size_t) span ? room / span :
      (size_t) span);
  const size_t shared = fixed + (size_t) band * span;
  Frame frame;

  frame.src = static_cast < const unsigned char *>(src->data);
  frame.dst = static_cast < unsigned char *>(dst->data);
  frame.src_pitch = src->pitch;
  frame.dst_pitch = dst->pitch;
  frame.channels = src->channels;
  frame.mask = channel_mask;
  frame.band = band;

  if (band < 1)
    return cvcore_fail (CVCORE_ERROR_INVALID_VALUE,
        "foveation rows of %zu bytes exceed the device's shared memory "
        "(filters of radius %d with %d-pixel fragments)", fixed,
        plan->max_radius, plan->fragment);
  CUDA_TRY (cudaSetDevice (device->id));
  if (shared > 48 * 1024)
    CUDA_TRY (cudaFuncSetAttribute (foveate_fragments,
            cudaFuncAttributeMaxDynamicSharedMemorySize, (int) shared));
  foveate_fragments <<< dim3 (plan->grid_w, plan->grid_h), kThreads, shared,
      static_cast < cudaStream_t > (cvcore_stream_handle (stream)) >>>
      (frame, *plan);
  CUDA_TRY (cudaGetLastError ());
  return CVCORE_OK;
}
