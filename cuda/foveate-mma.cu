/* Block-wise foveation on the tensor cores.
 *
 * A fragment's separable blur is two products with Toeplitz matrices of its
 * filter's taps. One block per fragment loads the padded tile of its
 * blurred channels into shared memory as 8-bit planes, whose samples become
 * halves (exactly) only as they enter a product. Then, a channel at a time:
 *  - rows: the transposed sums, rows[x][i] = sum over j of tap[j - x]
 *    tile[i][j], a product of the Toeplitz matrix (M: the fragment's
 *    columns) with the tile's rows (N), so that a warp takes 16 tile rows;
 *  - columns: out[y][x] = sum over i of tap[i - y] rows[x][i], a warp a
 *    16 x 8 block of outputs.
 * Taps are split into a high and a low half, and so are the rows' sums,
 * kept in shared memory as two half planes; the products of the parts but
 * low times low are accumulated in float. That keeps about 22 significant
 * bits, and the result within one unit of the CPU reference, which sums in
 * float in tap order. Neither Toeplitz matrix is stored: each thread forms
 * its operands from tables of tap pairs.
 */
#include "foveate-device.cuh"
#include "mma-device.cuh"

namespace cvfov
{

namespace
{

constexpr int kWarps = 8;
constexpr int kThreads = 32 * kWarps;
/* Tap 0's entry in the tables: a thread's operands start at most 22
 * entries below it and reach 8 further. */
constexpr int kPairOffset = 32;

__host__ __device__ constexpr size_t
round16 (size_t n)
{
  return (n + 15) & ~(size_t) 15;
}

/* Shared memory of a launch: for fragments of @fragment pixels, filters up
 * to @radius and @planes blurred channels, the Toeplitz operand tables,
 * the rows' sums of one channel (a high and a low half plane), the padded
 * tile and the fragment's output (8-bit planes, one per blurred channel),
 * the output's space first holding the pair tables the operand tables are
 * made from. */
struct Layout
{
  int bands;                    /* 16-row blocks of the tile */
  int tile_pitch;               /* bytes */
  int rows_pitch;               /* halves */
  int pairs;                    /* entries per table */
  int out_pitch;                /* bytes */
  size_t rows_part, tile_plane; /* halves, bytes */
  size_t rows_offset, tile_offset, out_offset, total;

  __host__ __device__ Layout (int fragment, int radius, int planes)
  {
    const int span = fragment + 2 * radius;
    /* the tile starts up to 3 columns early, on a whole 4 pixels */
    const int columns = (span + 3 + 3) & ~3;
    const size_t tables = 2 * (size_t) pairs_for (radius) * sizeof (uint4);

    bands = (span + 15) / 16;
    pairs = pairs_for (radius);
    /* A pitch of 8 bytes past a multiple of 16 puts a warp's loads from
     * eight rows in distinct banks. Reads past a row's end run into the
     * next row, or past the last plane into its spare rows and the
     * output's space: any bytes do, where the taps are zero. */
    tile_pitch = (columns + 7) / 16 * 16 + 8;
    /* 16-byte rows for ldmatrix, any eight of them in distinct banks */
    rows_pitch = 16 * bands + 8;
    out_pitch = fragment + 4;
    rows_part = (size_t) fragment * rows_pitch;
    tile_plane = (size_t) span * tile_pitch;
    rows_offset = round16 (tables);
    tile_offset = rows_offset + 2 * rows_part * sizeof (__half);
    out_offset = tile_offset + round16 (planes * tile_plane +
        (size_t) (16 * bands - span + 1) * tile_pitch);
    total = out_offset + max ((size_t) planes * fragment * out_pitch,
        2 * (size_t) pairs * sizeof (unsigned));
  }

  Layout () = default;

  __host__ __device__ static int pairs_for (int radius)
  {
    return 2 * radius + 1 + 2 * kPairOffset;
  }
};

struct Frame
{
  const unsigned char *src;
  unsigned char *dst;
  size_t src_pitch, dst_pitch;
  unsigned mask;                /* blurred channels */
  int planes;                   /* how many */
  bool vector;                  /* four pixels load as one */
  float scale, unscale;         /* powers of two: taps kept clear of
                                 * half's subnormals */
  Layout layout;
};

/* A pixel of @NC 8-bit channels, channel c in bits 8 c. */
template < int NC > __device__ __forceinline__ unsigned
load_pixel (const unsigned char *p)
{
  if (NC == 4)
    return *reinterpret_cast < const unsigned *>(p);
  if (NC == 2)
    return *reinterpret_cast < const unsigned short *>(p);
  return *p;
}

template < int NC > __device__ __forceinline__ void
store_pixel (unsigned char *p, unsigned v)
{
  if (NC == 4)
    *reinterpret_cast < unsigned *>(p) = v;
  else if (NC == 2)
    *reinterpret_cast < unsigned short *>(p) = (unsigned short) v;
  else
    *p = (unsigned char) v;
}

/* Four neighbouring pixels from column @x of @row, clamped to @width, as
 * they lie in memory: four words (4 channels), two (2) or one (1). One
 * load where all four are inside and aligned (@whole). */
template < int NC > __device__ __forceinline__ uint4
load_quad (const unsigned char *row, int x, int width, bool whole)
{
  uint4 q = { 0, 0, 0, 0 };

  if (whole) {
    const unsigned char *p = row + (size_t) x * NC;

    if (NC == 4)
      return *reinterpret_cast < const uint4 * >(p);
    if (NC == 2) {
      const uint2 v = *reinterpret_cast < const uint2 * >(p);

      q.x = v.x;
      q.y = v.y;
      return q;
    }
    q.x = *reinterpret_cast < const unsigned *>(p);
    return q;
  }
  unsigned v[4];

#pragma unroll
  for (int i = 0; i < 4; i++)
    v[i] = load_pixel < NC > (row + (size_t) cv_clamp_index (x + i,
            width) * NC);
  if (NC == 4)
    return make_uint4 (v[0], v[1], v[2], v[3]);
  if (NC == 2) {
    q.x = v[0] | v[1] << 16;
    q.y = v[2] | v[3] << 16;
    return q;
  }
  q.x = v[0] | v[1] << 8 | v[2] << 16 | v[3] << 24;
  return q;
}

/* Channel @c of a quad's four pixels in one word, first in the lowest
 * byte. */
template < int NC > __device__ __forceinline__ unsigned
channel_word (const uint4 & q, int c)
{
  if (NC == 4) {
    const unsigned pick = c | (c + 4) << 4;

    return __byte_perm (__byte_perm (q.x, q.y, pick),
        __byte_perm (q.z, q.w, pick), 0x5410);
  }
  if (NC == 2)
    return __byte_perm (q.x, q.y, c ? 0x7531 : 0x6420);
  return q.x;
}

/* Two neighbouring samples of a tile plane as an operand register. */
__device__ __forceinline__ unsigned
sample_pair (const unsigned char *p)
{
  return cvmma::bytes_to_halves (*reinterpret_cast <
      const unsigned short *>(p));
}

/* The padded tile of the fragment: rows from @top, columns from @left (a
 * multiple of 4), edges clamped, one 8-bit plane per blurred channel. A
 * warp takes a row at a time, a lane four neighbouring pixels. */
template < int NC > __device__ void
load_tile (const Frame & frame, const cvcore_fov_plan & plan,
    unsigned char *tile, int left, int top, int columns, int rows)
{
  const Layout & layout = frame.layout;
  const int warp = threadIdx.x >> 5;
  const int plane = (int) layout.tile_plane;

  for (int tx = 4 * (threadIdx.x & 31); tx < columns; tx += 128) {
    const int x = left + tx;
    const bool whole = frame.vector && x >= 0 && x + 3 < plan.width;
    unsigned char *at = tile + warp * layout.tile_pitch + tx;

    /* several rows' loads in flight */
#pragma unroll 4
    for (int ty = warp; ty < rows; ty += kWarps) {
      const uint4 quad = load_quad < NC > (frame.src + (size_t)
          cv_clamp_index (top + ty, plan.height) * frame.src_pitch, x,
          plan.width, whole);
      unsigned char *word = at;

#pragma unroll
      for (int c = 0; c < NC; c++)
        if (frame.mask >> c & 1) {
          *reinterpret_cast < unsigned *>(word) = channel_word < NC > (quad,
              c);
          word += plane;
        }
      at += kWarps * layout.tile_pitch;
    }
  }
}

/* The Toeplitz operand tables of a filter. A Toeplitz operand
 * A[m][k] = tap[k - m + a] of m16n8k16 needs three distinct registers per
 * thread: the tap pairs at entries e, e - 8 and e + 8 of a pair table
 * (rows 8 apart are 8 taps apart), with e = kPairOffset + a + pair - group.
 * Entry e of the operand tables holds them in register order, as high and
 * low halves of the taps' split; @pairs (2 @entries words) is
 * scratch. Synchronises the block. */
__device__ void
build_operands (const float *tap, int taps, float scale, int entries,
    unsigned *pairs, uint4 * high, uint4 * low)
{
  unsigned *pairs_low = pairs + entries;

  for (int e = threadIdx.x; e < entries; e += kThreads) {
    const int k = e - kPairOffset;
    const float w0 = k >= 0 && k < taps ? tap[k] * scale : 0.0f;
    const float w1 = k + 1 >= 0 && k + 1 < taps ? tap[k + 1] * scale : 0.0f;

    cvmma::split_pair (w0, w1, &pairs[e], &pairs_low[e]);
  }
  __syncthreads ();
  for (int e = 8 + threadIdx.x; e < entries - 8; e += kThreads) {
    high[e] = make_uint4 (pairs[e], pairs[e - 8], pairs[e + 8], pairs[e]);
    low[e] = make_uint4 (pairs_low[e], pairs_low[e - 8], pairs_low[e + 8],
        pairs_low[e]);
  }
}

__device__ __forceinline__ void
load_operand (const uint4 * table, int e, unsigned a[4])
{
  const uint4 v = table[e];

  a[0] = v.x;
  a[1] = v.y;
  a[2] = v.z;
  a[3] = v.w;
}

/* Rows 16 @band.. of a tile plane: for every column x of the fragment and
 * row i, the sum of tap[j - x - @shift] plane[i][j] over j (@k_blocks
 * blocks of 16 columns), into rows[x][i] of the @high and @low half
 * planes. */
template < int F > __device__ __forceinline__ void
rows_band (const Layout & layout, const unsigned char *plane, int band,
    int k_blocks, int shift, int taps, const uint4 * op_high,
    const uint4 * op_low, float unscale, __half * high, __half * low)
{
  constexpr int kM = (F + 15) / 16;
  const int lane = threadIdx.x & 31;
  const int group = lane >> 2, pair = 2 * (lane & 3);
  /* B[k][n] = plane[16 band + n][k]: two n8 blocks, 8 rows apart */
  const unsigned char *b0 = plane + (16 * band + group) * layout.tile_pitch +
      pair;
  const unsigned char *b1 = b0 + 8 * layout.tile_pitch;
  float acc[kM][2][4] = { };

#pragma unroll 1
  for (int k = 0; k < 16 * k_blocks; k += 16) {
    const unsigned b[2][2] = { {sample_pair (b0 + k), sample_pair (b0 + k +
                8)}, {sample_pair (b1 + k), sample_pair (b1 + k + 8)}
    };

#pragma unroll
    for (int mt = 0; mt < kM; mt++) {
      /* tap index at this block of A's top-left corner; it holds
       * d - 15 .. d + 15, skipped when all are outside the filter */
      const int d = k - 16 * mt - shift;
      unsigned ah[4], al[4];

      if (d + 15 < 0 || d - 15 >= taps)
        continue;
      load_operand (op_high, kPairOffset + d + pair - group, ah);
      load_operand (op_low, kPairOffset + d + pair - group, al);
#pragma unroll
      for (int nt = 0; nt < 2; nt++) {
        cvmma::mma (acc[mt][nt], ah, b[nt][0], b[nt][1]);
        cvmma::mma (acc[mt][nt], al, b[nt][0], b[nt][1]);
      }
    }
  }
#pragma unroll
  for (int mt = 0; mt < kM; mt++)
#pragma unroll
    for (int nt = 0; nt < 2; nt++)
#pragma unroll
      for (int half = 0; half < 2; half++) {
        const int x = 16 * mt + group + 8 * half;
        const int at = x * layout.rows_pitch + 16 * band + 8 * nt + pair;

        if (x < F)
          cvmma::split_pair (acc[mt][nt][2 * half] * unscale,
              acc[mt][nt][2 * half + 1] * unscale,
              reinterpret_cast < unsigned *>(high + at),
              reinterpret_cast < unsigned *>(low + at));
      }
}

/* Outputs of rows 16 @mc.., columns 8 @nt.. of the fragment: sums of
 * tap[i - y] rows[x][i] over i (@bands blocks of 16), rounded into the
 * output plane @out. */
template < int F > __device__ __forceinline__ void
columns_block (const Layout & layout, const __half * high, int mc, int nt,
    int bands, int taps, const uint4 * op_high, const uint4 * op_low,
    float unscale, unsigned char *out)
{
  const int lane = threadIdx.x & 31;
  const int group = lane >> 2, pair = 2 * (lane & 3);
  /* ldmatrix: B[k][n] = rows[8 nt + n][16 kb + k]; lanes 0-7 address
   * k 0-7 of the high part, lanes 8-15 k 8-15, lanes 16-31 the low part's */
  const __half *b_row = high + (lane >> 4) * layout.rows_part +
      (8 * nt + (lane & 7)) * layout.rows_pitch + (lane >> 3 & 1) * 8;
  const int last = min (mc + (taps + 14) / 16, bands - 1);
  float acc[4] = { };

#pragma unroll 1
  for (int kb = mc; kb <= last; kb++) {
    const int e = kPairOffset + 16 * (kb - mc) + pair - group;
    unsigned ah[4], al[4], b[4];

    load_operand (op_high, e, ah);
    load_operand (op_low, e, al);
    cvmma::load_matrices (b_row + 16 * kb, b);
    cvmma::mma (acc, ah, b[0], b[1]);
    cvmma::mma (acc, ah, b[2], b[3]);
    cvmma::mma (acc, al, b[0], b[1]);
  }
#pragma unroll
  for (int q = 0; q < 4; q++) {
    const int y = 16 * mc + group + 8 * (q >> 1);
    const int x = 8 * nt + pair + (q & 1);

    if (y < F)
      out[y * layout.out_pitch + x] = (unsigned char) cv_fov_round (acc[q] *
          unscale);
  }
}

/* Shared memory allows four blocks on an SM at the default plan's radii;
 * registers are budgeted for them. */
template < int NC, int F >
__global__ void __launch_bounds__ (kThreads, 4)
foveate_mma (Frame frame, const __grid_constant__ ParamPlan param)
{
  constexpr int kColumnBands = (F + 15) / 16;
  constexpr int kColumnBlocks = F / 8;
  extern __shared__ uint4 shared[];
  __shared__ int block_filter;
  const cvcore_fov_plan & plan = param.plan ();
  const Layout & layout = frame.layout;
  unsigned char *base = reinterpret_cast < unsigned char *>(shared);
  uint4 *op_high = shared;
  uint4 *op_low = op_high + layout.pairs;
  __half *rows = reinterpret_cast < __half * >(base + layout.rows_offset);
  unsigned char *tile = base + layout.tile_offset;
  unsigned char *out = base + layout.out_offset;
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int bx = plan.origin_x + blockIdx.x * F;
  const int by = plan.origin_y + blockIdx.y * F;
  const int x0 = max (bx, 0), y0 = max (by, 0);
  const int w = min (bx + F, plan.width) - x0;
  const int h = min (by + F, plan.height) - y0;

  /* one lookup for the block */
  if (threadIdx.x == 0)
    block_filter = cv_fov_filter (&plan, blockIdx.x, blockIdx.y);
  __syncthreads ();

  const int f = block_filter;
  /* filter 0 copies */
  const unsigned mask = f > 0 ? frame.mask : 0;

  if (mask) {
    const int r = plan.radius[f], taps = 2 * r + 1, span = F + 2 * r;
    const int bands = (span + 15) / 16;
    /* the tile's first column on a whole 4 pixels, @shift before the
     * first the filter needs */
    const int left = (x0 - r) & ~3, shift = x0 - r - left;
    const int k_blocks = (span + shift + 15) / 16;

    build_operands (plan.taps + plan.offset[f], taps, frame.scale,
        Layout::pairs_for (r), reinterpret_cast < unsigned *>(out), op_high,
        op_low);
    load_tile < NC > (frame, plan, tile, left, y0 - r, span + shift, span);
    for (int p = 0; p < frame.planes; p++) {
      /* the operands and the tile are in; the previous channel's columns
       * are done with the rows */
      __syncthreads ();
      for (int band = warp; band < bands; band += kWarps)
        rows_band < F > (layout, tile + p * layout.tile_plane, band, k_blocks,
            shift, taps, op_high, op_low, frame.unscale, rows,
            rows + layout.rows_part);
      __syncthreads ();
      for (int u = warp; u < kColumnBands * kColumnBlocks; u += kWarps)
        columns_block < F > (layout, rows, u / kColumnBlocks,
            u % kColumnBlocks, bands, taps, op_high, op_low, frame.unscale,
            out + p * F * layout.out_pitch);
    }
    __syncthreads ();
  }

  const unsigned char *s = frame.src + (size_t) (y0 + warp) * frame.src_pitch +
      (size_t) x0 * NC;
  unsigned char *d = frame.dst + (size_t) (y0 + warp) * frame.dst_pitch +
      (size_t) x0 * NC;
  const unsigned char *blurred = out + warp * layout.out_pitch;

  for (int y = warp; y < h; y += kWarps) {
    for (int x = lane; x < w; x += 32) {
      const unsigned char *sample = blurred + x;
      unsigned v = load_pixel < NC > (s + x * NC);

      /* byte c of v from the plane's sample */
#pragma unroll
      for (int c = 0; c < NC; c++)
        if (mask >> c & 1) {
          v = __byte_perm (v, *sample, (0x3210 & ~(0xf << 4 * c)) |
              4 << 4 * c);
          sample += F * layout.out_pitch;
        }
      store_pixel < NC > (d + x * NC, v);
    }
    s += kWarps * frame.src_pitch;
    d += kWarps * frame.dst_pitch;
    blurred += kWarps * layout.out_pitch;
  }
}

template < int NC > cvcore_status
launch_channels (cudaStream_t stream, const Frame & frame,
    const ParamPlan & param, size_t shared)
{
  const cvcore_fov_plan & plan = param.plan ();
  void (*kernel) (Frame, const ParamPlan) =
      plan.fragment == 8 ? foveate_mma < NC, 8 > :
      plan.fragment == 16 ? foveate_mma < NC, 16 > : foveate_mma < NC, 32 >;

  if (shared > 48 * 1024)
    CUDA_TRY (cudaFuncSetAttribute (kernel,
            cudaFuncAttributeMaxDynamicSharedMemorySize, (int) shared));
  kernel <<< dim3 (plan.grid_w, plan.grid_h), kThreads, shared, stream >>>
      (frame, param);
  CUDA_TRY (cudaGetLastError ());
  return CVCORE_OK;
}

int
blurred_planes (unsigned mask, int channels)
{
  return __builtin_popcount (mask & ((1u << channels) - 1));
}

}                               /* namespace */

size_t
mma_shared_bytes (const cvcore_device * device, const cvcore_fov_plan * plan,
    const cvcore_image * src, const cvcore_image * dst, unsigned mask)
{
  const int channels = src->channels;
  const uintptr_t alignment = (uintptr_t) src->data | (uintptr_t) dst->data |
      src->pitch | dst->pitch;

  if (device->compute_capability < 80 || plan->smooth ||
      plan->n_taps > CVCORE_FOV_PARAM_TAPS ||
      (channels != 1 && channels != 2 && channels != 4) ||
      alignment % channels != 0)
    return 0;

  const Layout layout (plan->fragment, plan->max_radius,
      blurred_planes (mask, channels));

  return layout.total <= device->shared_per_block_optin ? layout.total : 0;
}

cvcore_status
launch_mma (cudaStream_t stream, const cvcore_image * src,
    const cvcore_image * dst, unsigned mask, const ParamPlan & param,
    size_t shared)
{
  const cvcore_fov_plan & plan = param.plan ();
  float largest = 0.0f;
  Frame frame;

  for (int i = 0; i < plan.n_taps; i++)
    largest = fmaxf (largest, plan.taps[i]);
  frame.src = static_cast < const unsigned char *>(src->data);
  frame.dst = static_cast < unsigned char *>(dst->data);
  frame.src_pitch = src->pitch;
  frame.dst_pitch = dst->pitch;
  frame.mask = mask & ((1u << src->channels) - 1);
  frame.planes = blurred_planes (mask, src->channels);
  frame.layout = Layout (plan.fragment, plan.max_radius, frame.planes);
  /* four pixels in one load: aligned to their size */
  frame.vector = ((uintptr_t) src->data | src->pitch) % (4 * src->channels)
      == 0;
  /* the largest tap near 2^13 */
  frame.scale = largest > 0.0f ? ldexpf (1.0f, 13 - ilogbf (largest)) : 1.0f;
  frame.unscale = 1.0f / frame.scale;

  switch (src->channels) {
    case 1:
      return launch_channels < 1 > (stream, frame, param, shared);
    case 2:
      return launch_channels < 2 > (stream, frame, param, shared);
    default:
      return launch_channels < 4 > (stream, frame, param, shared);
  }
}

}                               /* namespace cvfov */
