/* CUDA kernels of the blur-stack foveation: the passes that make the
 * octaves' bases and the levels, several to a launch (each halving in a
 * launch after the one before it, each level after its octave's base), a
 * block per tile of a pass's output and channel; then the rendering, a
 * thread per four pixels. The arithmetic is the CPU reference's
 * (foveate-stack-common.h). Every launch's parameters stay under 4 KB, the
 * classic limit. */
#include "foveate-device.cuh"
#include "foveate-private.h"
#include "launch.cuh"

namespace {

using cv_foveate::ParamFields;

constexpr int kThreads = 256;
/* a block's output tile, kTile by kTile; a thread sums kGroup outputs at
 * once, so that each sample it reads serves up to kGroup of them */
constexpr int kTile = 32, kGroup = 8;
/* Taps of the passes' kernels here: levels' padded with zeros to the
 * next of 7, 11, 15, 19 or the widest, 25 (radius 12), halvings' to 16;
 * zero taps add nothing to a sum, so the sums are the CPU reference's. */
constexpr int kLevelTaps7 = 7, kLevelTaps11 = 11, kLevelTaps15 = 15,
              kLevelTaps19 = 19, kLevelTaps = 25;
constexpr int kBaseTaps = 16;
constexpr int kMaxTaps = kLevelTaps;
/* source samples a tile reads across and down, at most */
constexpr int kSourceSide = 2 * (kTile - 1) + kBaseTaps;
/* Shared rows are an odd number of floats apart, so that the threads of a
 * warp, which take consecutive rows, read and write distinct banks. */
__host__ __device__ constexpr int
odd_stride (int n)
{
  return n | 1;
}
constexpr int kRowsStride = odd_stride (kTile);

constexpr int kPassesPerLaunch = 8;

/* The passes of a launch, where each one's blocks start, and their taps
 * (each pass's taps offset indexes these). */
struct Passes
{
  int n;
  /* the blurred channels, the others' blocks not launched */
  int n_channels;
  unsigned char channel[4];
  int first_block[kPassesPerLaunch + 1];
  cv_foveate_stack_pass pass[kPassesPerLaunch];
  float taps[kPassesPerLaunch * kMaxTaps];
};

/* What rendering reads of the stack. */
struct alignas (alignof (cvcore_foveate_stack)) StackFields
{
  unsigned char bytes[offsetof (cvcore_foveate_stack, pixels)];

  __host__ void
  set (const cvcore_foveate_stack *stack)
  {
    memcpy (bytes, stack, sizeof (bytes));
  }

  __device__ const cvcore_foveate_stack &
  stack () const
  {
    return *reinterpret_cast<const cvcore_foveate_stack *> (bytes);
  }
};

/* Distance from @fix to the nearest and the farthest of the centres of
 * octave pixels [lo, hi] along one axis. */
__device__ void
axis_reach (int lo, int hi, int octave, float fix, float *near, float *far)
{
  const float a = cv_foveate_octave_centre (lo, octave) - fix;
  const float b = cv_foveate_octave_centre (hi, octave) - fix;

  *near = a > 0.0f ? a : b < 0.0f ? -b : 0.0f;
  *far = fmaxf (fabsf (a), fabsf (b));
}

/* acc[j] = the sum over k of tap[k] p[(STEP j + k) stride], j < kGroup,
 * each in tap order: every sample read serves up to kGroup sums. */
template <int STEP, int TAPS>
__device__ __forceinline__ void
group_sums (const float *p, int stride, const float tap[TAPS],
    float acc[kGroup])
{
#pragma unroll
  for (int j = 0; j < kGroup; j++)
    acc[j] = 0.0f;
#pragma unroll
  for (int m = 0; m < STEP * (kGroup - 1) + TAPS; m++) {
    const float v = p[m * stride];

#pragma unroll
    for (int j = 0; j < kGroup; j++)
      if (m - STEP * j >= 0 && m - STEP * j < TAPS)
        acc[j] = cv_fma (tap[m - STEP * j], v, acc[j]);
  }
}

/* Source samples [@col0, @col0 + @n_cols) x [@row0, @row0 + @n_rows) of
 * channel @c into @source, rows @SIDE floats apart (what
 * cv_foveate_stack_load reads): a warp a row, so that its reads are
 * consecutive, and each column's clamped offset worked out once. */
template <int SIDE>
__device__ __forceinline__ void
load_source (const cv_foveate_stack_pass &pass, int col0, int row0, int n_cols,
    int n_rows, int c, int channels, float *source)
{
  constexpr int kWarps = kThreads / 32;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;

  for (int col = lane; col < n_cols; col += 32) {
    const int offset =
        cv_clamp_index (col0 + col - pass.src_x0, pass.src_w) * channels + c;

    for (int r = warp; r < n_rows; r += kWarps) {
      const size_t row =
          (size_t) cv_clamp_index (row0 + r - pass.src_y0, pass.src_h)
          * pass.src_pitch;

      source[r * SIDE + col] = pass.src_bytes
          ? (float) static_cast<const unsigned char *> (pass.src)[row + offset]
          : (float) static_cast<const uint16_t *> (pass.src)[row + offset];
    }
  }
}

/* Pass @pass over channel @c of its tile of tw x th outputs from (X0, Y0):
 * the source samples into shared memory, row sums into @rows, then column
 * sums, a group of kGroup outputs per thread. */
template <int STEP, int TAPS>
__device__ __forceinline__ void
pass_tile (const cv_foveate_stack_pass &pass, const float *taps, int X0, int Y0,
    int tw, int th, int c, int channels, float *source, float *rows)
{
  /* source rows and columns of a whole tile */
  constexpr int kSide = odd_stride (STEP * (kTile - 1) + TAPS);
  constexpr int kGroups = kTile / kGroup;
  const int n_rows = STEP * (th - 1) + TAPS, n_cols = STEP * (tw - 1) + TAPS;
  float tap[TAPS];

#pragma unroll
  for (int k = 0; k < TAPS; k++)
    tap[k] = taps[k];
  load_source<kSide> (pass, STEP * X0 + pass.first, STEP * Y0 + pass.first,
      n_cols, n_rows, c, channels, source);
  __syncthreads ();
  /* Samples past n_cols (or rows past n_rows below) are stale, and feed
   * only outputs past the tile's edge, which are not stored. */
  for (int i = threadIdx.x; i < n_rows * kGroups; i += kThreads) {
    const int g = i / n_rows, r = i - g * n_rows, x = g * kGroup;
    float acc[kGroup];

    group_sums<STEP, TAPS> (source + r * kSide + STEP * x, 1, tap, acc);
#pragma unroll
    for (int j = 0; j < kGroup; j++)
      rows[r * kRowsStride + x + j] = acc[j];
  }
  __syncthreads ();
  for (int i = threadIdx.x; i < kTile * kGroups; i += kThreads) {
    const int x = i % kTile, y = i / kTile * kGroup;
    float acc[kGroup];

    if (x >= tw || y >= th)
      continue;
    group_sums<STEP, TAPS> (rows + STEP * y * kRowsStride + x, kRowsStride, tap,
        acc);
#pragma unroll
    for (int j = 0; j < kGroup; j++)
      if (y + j < th)
        pass.dst[(size_t) (Y0 + y + j - pass.y0) * pass.dst_pitch
            + (size_t) (X0 + x - pass.x0) * channels + c] =
            cv_foveate_stack_store (&pass, acc[j]);
  }
}

/* Five blocks an SM, at 48 registers a thread without spilling: the
 * passes ran 7 % faster than with four and 12 % faster than with the
 * three that the 72 registers they would take leave room for. */
__global__ void
__launch_bounds__ (kThreads, 5)
    stack_passes (const __grid_constant__ Passes passes, int channels)
{
  __shared__ float source[kSourceSide * odd_stride (kSourceSide)];
  __shared__ float rows[kSourceSide * kRowsStride];
  int j = 0;

  while (j + 1 < passes.n && (int) blockIdx.x >= passes.first_block[j + 1])
    j++;

  /* a block per tile and channel: more, shorter blocks fill the device
   * better than a block per tile where a pass has few tiles */
  const cv_foveate_stack_pass &pass = passes.pass[j];
  const int tiles_x = (pass.x1 - pass.x0 + kTile - 1) / kTile;
  const int tile = (blockIdx.x - passes.first_block[j]) / passes.n_channels;
  const int c =
      passes.channel[(blockIdx.x - passes.first_block[j]) % passes.n_channels];
  const int X0 = pass.x0 + tile % tiles_x * kTile;
  const int Y0 = pass.y0 + tile / tiles_x * kTile;
  const int tw = min (kTile, pass.x1 - X0), th = min (kTile, pass.y1 - Y0);
  float near_x, far_x, near_y, far_y;

  /* a tile no pixel reads */
  axis_reach (X0, X0 + tw - 1, pass.octave, pass.fix_x, &near_x, &far_x);
  axis_reach (Y0, Y0 + th - 1, pass.octave, pass.fix_y, &near_y, &far_y);
  if (sqrtf (near_x * near_x + near_y * near_y) > pass.reach_hi * 1.001f
      || sqrtf (far_x * far_x + far_y * far_y) < pass.reach_lo * 0.999f)
    return;
  const float *taps = passes.taps + pass.taps;

  if (pass.step == 2)
    pass_tile<2, kBaseTaps> (pass, taps, X0, Y0, tw, th, c, channels, source,
        rows);
  else if (pass.n_taps == kLevelTaps7)
    pass_tile<1, kLevelTaps7> (pass, taps, X0, Y0, tw, th, c, channels, source,
        rows);
  else if (pass.n_taps == kLevelTaps11)
    pass_tile<1, kLevelTaps11> (pass, taps, X0, Y0, tw, th, c, channels, source,
        rows);
  else if (pass.n_taps == kLevelTaps15)
    pass_tile<1, kLevelTaps15> (pass, taps, X0, Y0, tw, th, c, channels, source,
        rows);
  else if (pass.n_taps == kLevelTaps19)
    pass_tile<1, kLevelTaps19> (pass, taps, X0, Y0, tw, th, c, channels, source,
        rows);
  else
    pass_tile<1, kLevelTaps> (pass, taps, X0, Y0, tw, th, c, channels, source,
        rows);
}

struct Frame
{
  const unsigned char *src;
  unsigned char *dst;
  size_t src_pitch, dst_pitch;
  unsigned mask;
  const uint16_t *memory;
};

/* @NC samples of a level from @p: one load for four. */
template <int NC>
__device__ __forceinline__ void
load_samples (const uint16_t *p, float v[NC])
{
  if (NC == 4) {
    const ushort4 q = *reinterpret_cast<const ushort4 *> (p);

    v[0] = q.x;
    v[1] = q.y;
    v[2] = q.z;
    v[NC - 1] = q.w;
  } else {
#pragma unroll
    for (int c = 0; c < NC; c++)
      v[c] = p[c];
  }
}

/* @NC channels of a level at a pixel (cv_foveate_stack_reading). */
template <int NC>
__device__ __forceinline__ void
read_level (const cv_foveate_stack_taps &t, float v[NC])
{
  float a[NC], b[NC], d[NC], e[NC];

  load_samples<NC> (t.p + t.a, a);
  load_samples<NC> (t.p + t.b, b);
  load_samples<NC> (t.p + t.d, d);
  load_samples<NC> (t.p + t.e, e);
#pragma unroll
  for (int c = 0; c < NC; c++)
    v[c] = cv_foveate_stack_bilinear (&t, a[c], b[c], d[c], e[c]);
}

/* Pixel (@x, @y) of @NC channels: copied, or its two levels mixed. */
template <int NC>
__device__ __forceinline__ void
render_pixel (const Frame &frame, const cvcore_foveate_plan &plan,
    const cvcore_foveate_stack &stack, int x, int y)
{
  const unsigned char *in = frame.src + y * frame.src_pitch + (size_t) x * NC;
  unsigned char *out = frame.dst + y * frame.dst_pitch + (size_t) x * NC;
  unsigned char result[NC];
  float low[NC], high[NC], weight;
  int k;

#pragma unroll
  for (int c = 0; c < NC; c++)
    result[c] = in[c];
  if (cv_foveate_stack_mixing (&stack,
          cv_foveate_stack_sigma (&plan, &stack, x, y), &k, &weight)) {
    cv_foveate_stack_taps t;

    if (k >= 0) {
      cv_foveate_stack_reading (&stack, frame.memory, NC, k, x, y, &t);
      read_level<NC> (t, low);
    } else {
#pragma unroll
      for (int c = 0; c < NC; c++)
        low[c] = cv_foveate_stack_fixed (in[c]);
    }
    if (weight > 0.0f) {
      cv_foveate_stack_reading (&stack, frame.memory, NC, k + 1, x, y, &t);
      read_level<NC> (t, high);
    }
#pragma unroll
    for (int c = 0; c < NC; c++)
      if (frame.mask >> c & 1)
        result[c] = (unsigned char) cv_foveate_stack_mix (low[c],
            weight > 0.0f ? high[c] : low[c], weight);
  }
#pragma unroll
  for (int c = 0; c < NC; c++)
    out[c] = result[c];
}

/* kRenderRows pixels a thread, a column of them: a block copies the level
 * table once for kRenderRows times the pixels. */
constexpr int kRenderRows = 4;

template <int NC>
__global__ void
__launch_bounds__ (kThreads)
    stack_render (Frame frame, const __grid_constant__ ParamFields param,
        const __grid_constant__ StackFields fields)
{
  /* the levels in shared memory: pixels of a warp look up different
   * ones, which parameters would serialise */
  __shared__ StackFields local;
  const cvcore_foveate_plan &plan = param.plan ();
  const int thread = threadIdx.y * blockDim.x + threadIdx.x;
  const int x = blockIdx.x * blockDim.x + threadIdx.x;

  for (int i = thread; i < (int) (sizeof (local.bytes) / 4);
       i += blockDim.x * blockDim.y)
    reinterpret_cast<unsigned *> (local.bytes)[i] =
        reinterpret_cast<const unsigned *> (fields.bytes)[i];
  __syncthreads ();
  if (x >= plan.width)
    return;
  for (int r = 0; r < kRenderRows; r++) {
    const int y = (blockIdx.y * kRenderRows + r) * blockDim.y + threadIdx.y;

    if (y < plan.height)
      render_pixel<NC> (frame, plan, local.stack (), x, y);
  }
}

/* Queues passes [@first, @first + @n) of @all, @n at most
 * kPassesPerLaunch, in one launch, over the channels of @mask, with their
 * taps from @taps padded to the kernel's count. */
cudaError_t
launch_passes (cudaStream_t cs, const cv_foveate_stack_pass *all, int first,
    int n, const float *taps, int channels, unsigned mask)
{
  Passes passes;
  int blocks = 0, n_taps = 0;

  passes.n = n;
  passes.n_channels = 0;
  for (int c = 0; c < channels; c++)
    if (mask >> c & 1)
      passes.channel[passes.n_channels++] = (unsigned char) c;
  for (int i = 0; i < n; i++) {
    const cv_foveate_stack_pass &p = all[first + i];
    const int padded = p.step == 2 ? kBaseTaps
        : p.n_taps <= kLevelTaps7  ? kLevelTaps7
        : p.n_taps <= kLevelTaps11 ? kLevelTaps11
        : p.n_taps <= kLevelTaps15 ? kLevelTaps15
        : p.n_taps <= kLevelTaps19 ? kLevelTaps19
                                   : kLevelTaps;
    /* halvings' taps are even, levels' odd: centred either way */
    const int front = (padded - p.n_taps) / 2;

    if (p.n_taps > padded)
      return cudaErrorInvalidValue;
    passes.pass[i] = p;
    passes.pass[i].taps = n_taps;
    passes.pass[i].first = p.first - front;
    passes.pass[i].n_taps = padded;
    for (int k = 0; k < padded; k++)
      passes.taps[n_taps + k] =
          k >= front && k < front + p.n_taps ? taps[p.taps + k - front] : 0.0f;
    n_taps += padded;
    passes.first_block[i] = blocks;
    blocks += (p.x1 - p.x0 + kTile - 1) / kTile
        * ((p.y1 - p.y0 + kTile - 1) / kTile) * passes.n_channels;
  }
  passes.first_block[n] = blocks;
  if (blocks == 0)
    return cudaSuccess;
  stack_passes<<<blocks, kThreads, 0, cs>>> (passes, channels);
  return cudaGetLastError ();
}

/* The passes in launch order, into @ordered, and each launch's count into
 * @counts; returns the number of launches. A launch holds up to
 * kPassesPerLaunch passes whose sources earlier launches made, the next
 * halving first, as every coarser octave waits for it: the small octaves'
 * halvings so share launches with levels instead of leaving most of the
 * device idle. */
int
schedule_passes (const cv_foveate_stack_pass *passes, int n, int n_bases,
    cv_foveate_stack_pass *ordered, int *counts)
{
  bool placed[CVCORE_FOVEATE_MAX_OCTAVES + CVCORE_FOVEATE_MAX_LEVELS] = {};
  int halvings = 0, n_placed = 0, launches = 0;

  while (n_placed < n) {
    /* bases 0 .. made exist */
    const int made = halvings;
    int count = 0;

    if (halvings < n_bases) {
      ordered[n_placed + count++] = passes[halvings];
      placed[halvings++] = true;
    }
    for (int i = n_bases; i < n && count < kPassesPerLaunch; i++)
      if (!placed[i] && passes[i].octave <= made) {
        ordered[n_placed + count++] = passes[i];
        placed[i] = true;
      }
    counts[launches++] = count;
    n_placed += count;
  }
  return launches;
}

} /* namespace */

extern "C" cvcore_status
cv_foveate_stack_cuda (cvcore_stream *stream, const cvcore_image *src,
    const cvcore_image *dst, unsigned mask, const cvcore_foveate_plan *plan,
    uint16_t *memory)
{
  cudaStream_t cs = cv_cuda_stream (stream);
  cv_foveate_stack_pass
      passes[CVCORE_FOVEATE_MAX_OCTAVES + CVCORE_FOVEATE_MAX_LEVELS],
      ordered[CVCORE_FOVEATE_MAX_OCTAVES + CVCORE_FOVEATE_MAX_LEVELS];
  int counts[CVCORE_FOVEATE_MAX_OCTAVES + CVCORE_FOVEATE_MAX_LEVELS];
  int n_bases;
  const int n = cv_foveate_stack_passes (plan, src, memory, passes, &n_bases);
  ParamFields param;
  StackFields fields;
  Frame frame;

  static_assert (sizeof (Passes) < 4096
          && sizeof (ParamFields) + sizeof (StackFields) + sizeof (Frame)
              < 4096,
      "small parameters");
  param.set (plan, 0);
  fields.set (&plan->stack);
  frame.src = static_cast<const unsigned char *> (src->data);
  frame.dst = static_cast<unsigned char *> (dst->data);
  frame.src_pitch = src->pitch;
  frame.dst_pitch = dst->pitch;
  frame.mask = mask;
  frame.memory = memory;

  CUDA_BIND (cvcore_stream_device (stream));
  /* a block takes 35 KB of shared memory: five fit an SM only when it
   * keeps most of its memory as shared memory */
  CUDA_TRY (cudaFuncSetAttribute (stack_passes,
      cudaFuncAttributePreferredSharedMemoryCarveout,
      cudaSharedmemCarveoutMaxShared));
  const int launches = schedule_passes (passes, n, n_bases, ordered, counts);

  for (int k = 0, first = 0; k < launches; first += counts[k++])
    CUDA_TRY (launch_passes (cs, ordered, first, counts[k], plan->stack.taps,
        src->channels, mask));
  {
    const dim3 block (32, kThreads / 32);
    const int rows = kRenderRows * block.y;
    const dim3 grid ((plan->width + 31) / 32, (plan->height + rows - 1) / rows);

    void (*kernel) (Frame, const ParamFields, const StackFields) =
        src->channels == 4   ? stack_render<4>
        : src->channels == 2 ? stack_render<2>
                             : stack_render<1>;

    kernel<<<grid, block, 0, cs>>> (frame, param, fields);
    CV_CUDA_LAUNCHED ();
  }
  return CVCORE_OK;
}
