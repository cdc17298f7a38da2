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
};

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
  float *rows = reinterpret_cast < float *>(shared);
  unsigned char *tile = reinterpret_cast < unsigned char *>(rows +
      (size + 2 * plan.max_radius + kGroup - 1) * size);

  for (int c = 0; c < nc; c++) {
    const int f = (frame.mask >> c & 1) ? blur_filter : 0;

    if (f == 0) {
      for (int i = threadIdx.x; i < w * h; i += kThreads) {
        const int y = y0 + i / w, x = x0 + i % w;

        frame.dst[y * frame.dst_pitch + x * nc + c] =
            frame.src[y * frame.src_pitch + x * nc + c];
      }
      continue;
    }

    const int r = plan.radius[f], taps = 2 * r + 1;
    const float *tap = plan.taps + plan.offset[f];
    const int tw = w + 2 * r, th = h + 2 * r;

    /* The previous channel's passes are done with the shared arrays. */
    __syncthreads ();
    for (int i = threadIdx.x; i < tw * th; i += kThreads) {
      const int ty = i / tw, tx = i - ty * tw;
      const int sy = cv_clamp_index (y0 - r + ty, plan.height);
      const int sx = cv_clamp_index (x0 - r + tx, plan.width);

      tile[i] = frame.src[sy * frame.src_pitch + sx * nc + c];
    }
    __syncthreads ();
    /* Rows: kGroup neighbouring outputs per thread, so each tile sample read
     * serves kGroup multiply-adds (each output's sum still runs over the taps
     * in order, as on the CPU). Reads past the row's end feed outputs past
     * the fragment, which are not stored. */
    const int wq = (w + kGroup - 1) / kGroup;
    for (int i = threadIdx.x; i < th * wq; i += kThreads) {
      const int ty = i / wq, x = (i - ty * wq) * kGroup;
      const unsigned char *p = tile + ty * tw + x;
      float acc[kGroup];

      sliding_sums (tap, taps, acc,[p] (int i) {
          return byte_to_float (p[i]);});
#pragma unroll
      for (int j = 0; j < kGroup; j++)
        if (x + j < w)
          rows[ty * size + x + j] = acc[j];
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
          frame.dst[(y0 + y + j) * frame.dst_pitch + (x0 + x) * nc + c] =
              (unsigned char) cv_fov_round (acc[j]);
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
  /* Rows and tile, each with room for the reads past their end that the
   * output groups make. */
  const size_t shared = (size_t) (span + kGroup - 1) * plan->fragment *
      sizeof (float) + (size_t) span * span + kGroup;
  Frame frame;

  frame.src = static_cast < const unsigned char *>(src->data);
  frame.dst = static_cast < unsigned char *>(dst->data);
  frame.src_pitch = src->pitch;
  frame.dst_pitch = dst->pitch;
  frame.channels = src->channels;
  frame.mask = channel_mask;

  if (shared > device->shared_per_block_optin)
    return cvcore_fail (CVCORE_ERROR_INVALID_VALUE,
        "foveation tile of %zu bytes exceeds the device's shared memory "
        "(filters of radius %d with %d-pixel fragments)", shared,
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
