/* CUDA kernels of the blur-stack foveation: the passes that make the
 * octaves' bases (one launch each, as each needs the one before) and then
 * every level (one launch for all), a block per tile of a pass's output;
 * then the rendering, a thread per pixel. The arithmetic is the CPU
 * reference's (foveate-stack-common.h). */
#include "foveate-device.cuh"
#include "foveate-private.h"

namespace
{

using cvfov::ParamFields;

constexpr int kThreads = 256;
/* a block's output tile */
constexpr int kTileW = 32, kTileH = 16;
/* source samples a tile reads, at most: halving passes of 16 taps */
constexpr int kMaxTaps = 32;
constexpr int kSourceRows = 2 * (kTileH - 1) + kMaxTaps;
constexpr int kSourceCols = 2 * (kTileW - 1) + kMaxTaps;

/* The passes of a launch and where each one's blocks start. */
struct Passes
{
  int n;
  int first_block[CVCORE_FOV_MAX_LEVELS + 1];
  cv_fov_stack_pass pass[CVCORE_FOV_MAX_LEVELS];
};

struct Taps
{
  float taps[CVCORE_FOV_STACK_TAPS];
};

/* The stack's fields without its taps, which rendering does not read. */
struct alignas (alignof (cvcore_fov_stack)) StackFields
{
  unsigned char bytes[offsetof (cvcore_fov_stack, taps)];

  __host__ void set (const cvcore_fov_stack * stack)
  {
    memcpy (bytes, stack, sizeof (bytes));
  }

  __device__ const cvcore_fov_stack & stack () const
  {
    return *reinterpret_cast < const cvcore_fov_stack * >(bytes);
  }
};

/* Distance from @fix to the nearest and the farthest of the centres of
 * octave pixels [lo, hi] along one axis. */
__device__ void
axis_reach (int lo, int hi, int octave, float fix, float *near, float *far)
{
  const float a = cv_fov_octave_centre (lo, octave) - fix;
  const float b = cv_fov_octave_centre (hi, octave) - fix;

  *near = a > 0.0f ? a : b < 0.0f ? -b : 0.0f;
  *far = fmaxf (fabsf (a), fabsf (b));
}

__global__ void __launch_bounds__ (kThreads)
stack_passes (const __grid_constant__ Passes passes,
    const __grid_constant__ Taps taps, int channels)
{
  __shared__ float source[kSourceRows * kSourceCols];
  __shared__ float rows[kSourceRows * kTileW];
  int j = 0;

  while (j + 1 < passes.n && (int) blockIdx.x >= passes.first_block[j + 1])
    j++;

  const cv_fov_stack_pass & pass = passes.pass[j];
  const int tiles_x = (pass.x1 - pass.x0 + kTileW - 1) / kTileW;
  const int tile = blockIdx.x - passes.first_block[j];
  const int X0 = pass.x0 + tile % tiles_x * kTileW;
  const int Y0 = pass.y0 + tile / tiles_x * kTileH;
  const int tw = min (kTileW, pass.x1 - X0), th = min (kTileH, pass.y1 - Y0);
  const int step = pass.step, n_taps = pass.n_taps;
  const int n_rows = step * (th - 1) + n_taps;
  const int n_cols = step * (tw - 1) + n_taps;
  const float *tap = taps.taps + pass.taps;
  float near_x, far_x, near_y, far_y;

  /* a tile no pixel reads */
  axis_reach (X0, X0 + tw - 1, pass.octave, pass.fix_x, &near_x, &far_x);
  axis_reach (Y0, Y0 + th - 1, pass.octave, pass.fix_y, &near_y, &far_y);
  if (sqrtf (near_x * near_x + near_y * near_y) > pass.reach_hi * 1.001f ||
      sqrtf (far_x * far_x + far_y * far_y) < pass.reach_lo * 0.999f)
    return;

  for (int c = 0; c < channels; c++) {
    __syncthreads ();
    for (int i = threadIdx.x; i < n_rows * n_cols; i += kThreads) {
      const int r = i / n_cols, col = i - r * n_cols;

      source[r * kSourceCols + col] = cv_fov_stack_load (&pass,
          step * Y0 + pass.first + r, step * X0 + pass.first + col, c,
          channels);
    }
    __syncthreads ();
    for (int i = threadIdx.x; i < n_rows * tw; i += kThreads) {
      const int r = i / tw, x = i - r * tw;
      const float *p = source + r * kSourceCols + step * x;
      float acc = 0.0f;

      for (int k = 0; k < n_taps; k++)
        acc += cv_mul_rn (tap[k], p[k]);
      rows[r * kTileW + x] = acc;
    }
    __syncthreads ();
    for (int i = threadIdx.x; i < th * tw; i += kThreads) {
      const int y = i / tw, x = i - y * tw;
      const float *p = rows + step * y * kTileW + x;
      float acc = 0.0f;

      for (int k = 0; k < n_taps; k++)
        acc += cv_mul_rn (tap[k], p[k * kTileW]);
      pass.dst[(size_t) (Y0 + y - pass.y0) * pass.dst_pitch +
          (size_t) (X0 + x - pass.x0) * channels + c] =
          cv_fov_stack_store (&pass, acc);
    }
  }
}

struct Frame
{
  const unsigned char *src;
  unsigned char *dst;
  size_t src_pitch, dst_pitch;
  int channels;
  unsigned mask;
  const uint16_t *memory;
};

__global__ void
stack_render (Frame frame, const __grid_constant__ ParamFields param,
    const __grid_constant__ StackFields fields)
{
  const cvcore_fov_plan & plan = param.plan ();
  const cvcore_fov_stack & stack = fields.stack ();
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;

  if (x >= plan.width || y >= plan.height)
    return;

  const int nc = frame.channels;
  const unsigned char *in = frame.src + y * frame.src_pitch + (size_t) x * nc;
  unsigned char *out = frame.dst + y * frame.dst_pitch + (size_t) x * nc;
  const float sigma = cv_fov_stack_sigma (&plan, &stack, x, y);

  for (int c = 0; c < nc; c++)
    out[c] = (frame.mask >> c & 1) ? (unsigned char)
        cv_fov_stack_pixel (&stack, frame.memory, nc, sigma, x, y, c,
        in[c]) : in[c];
}

/* Queues passes [@first, @first + @n) of @all in one launch. */
cudaError_t
launch_passes (cudaStream_t cs, const cv_fov_stack_pass * all, int first,
    int n, const Taps & taps, int channels)
{
  Passes passes;
  int blocks = 0;

  passes.n = n;
  for (int i = 0; i < n; i++) {
    const cv_fov_stack_pass & p = all[first + i];

    passes.pass[i] = p;
    passes.first_block[i] = blocks;
    blocks += (p.x1 - p.x0 + kTileW - 1) / kTileW *
        ((p.y1 - p.y0 + kTileH - 1) / kTileH);
  }
  passes.first_block[n] = blocks;
  if (blocks == 0)
    return cudaSuccess;
  stack_passes <<< blocks, kThreads, 0, cs >>> (passes, taps, channels);
  return cudaGetLastError ();
}

}                               /* namespace */

extern "C" cvcore_status
cvcore_cuda_foveate_stack (cvcore_stream * stream, const cvcore_image * src,
    const cvcore_image * dst, unsigned mask, const cvcore_fov_plan * plan,
    uint16_t * memory)
{
  cudaStream_t cs = static_cast < cudaStream_t > (cvcore_stream_handle (stream));
  cv_fov_stack_pass passes[CVCORE_FOV_MAX_OCTAVES + CVCORE_FOV_MAX_LEVELS];
  int n_bases;
  const int n = cv_fov_stack_passes (plan, src, memory, passes, &n_bases);
  Taps taps;
  ParamFields param;
  StackFields fields;
  Frame frame;

  memcpy (taps.taps, plan->stack.taps, sizeof (taps.taps));
  param.set (plan, 0);
  fields.set (&plan->stack);
  frame.src = static_cast < const unsigned char *>(src->data);
  frame.dst = static_cast < unsigned char *>(dst->data);
  frame.src_pitch = src->pitch;
  frame.dst_pitch = dst->pitch;
  frame.channels = src->channels;
  frame.mask = mask;
  frame.memory = memory;

  CUDA_BIND (cvcore_stream_device (stream));
  for (int i = 0; i < n_bases; i++)
    CUDA_TRY (launch_passes (cs, passes, i, 1, taps, src->channels));
  CUDA_TRY (launch_passes (cs, passes, n_bases, n - n_bases, taps,
          src->channels));
  {
    const dim3 block (32, 8);
    const dim3 grid ((plan->width + 31) / 32, (plan->height + 7) / 8);

    stack_render <<< grid, block, 0, cs >>> (frame, param, fields);
    CUDA_TRY (cudaGetLastError ());
  }
  return CVCORE_OK;
}
