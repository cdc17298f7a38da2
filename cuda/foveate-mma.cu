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
/* Tap 0's entry in a pair table: the indices a thread forms go at most 23
 * below it. */
constexpr int kPairOffset = 32;

struct Frame
{
  const unsigned char *src;
  unsigned char *dst;
  size_t src_pitch, dst_pitch;
  unsigned mask;                /* blurred channels */
  int planes;                   /* how many */
  float scale, unscale;         /* powers of two: taps kept clear of
                                 * half's subnormals */
};

__host__ __device__ constexpr size_t
round16 (size_t n)
{
  return (n + 15) & ~(size_t) 15;
}

/* Shared memory of a launch: for fragments of @fragment pixels, filters up
 * to @radius and @planes blurred channels, the two pair
 * tables, the rows' sums of one channel (a high and a low half plane), the
 * padded tile and the fragment's output (8-bit planes, one per blurred
 * channel). */
struct Layout
{
  int m_tiles;                  /* 16-row (and column) blocks of the tile */
  int tile_pitch;               /* bytes */
  int rows_pitch;               /* halves */
  int pairs;                    /* entries per pair table */
  int out_pitch;                /* bytes; a plane per blurred channel */
  size_t rows_part, tile_plane; /* halves, bytes */
  size_t rows_offset, tile_offset, out_offset, total;

  __host__ __device__ Layout (int fragment, int radius, int planes)
  {
    const int span = fragment + 2 * radius;

    m_tiles = (span + 15) / 16;
    /* Rows hold whole words of four samples. A pitch of 8 bytes past a
     * multiple of 16 puts a warp's loads from eight rows in distinct
     * banks. Reads past a row's end run into the next one, where the taps
     * are zero. */
    tile_pitch = (((span + 3) & ~3) + 7) / 16 * 16 + 8;
    /* 16-byte rows for ldmatrix, any eight of them in distinct banks */
    rows_pitch = 16 * m_tiles + 8;
    pairs = 2 * radius + 1 + 2 * kPairOffset;
    rows_part = (size_t) fragment * rows_pitch;
    tile_plane = (size_t) 16 * m_tiles * tile_pitch;
    rows_offset = round16 (2 * pairs * sizeof (unsigned));
    tile_offset = rows_offset + 2 * rows_part * sizeof (__half);
    /* the last plane's last row reads up to 15 bytes on */
    out_offset = tile_offset + round16 (planes * tile_plane + 16);
    out_pitch = fragment + 4;
    total = out_offset + (size_t) planes * fragment * out_pitch;
  }
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

/* Two neighbouring samples of a tile plane as an operand register. */
__device__ __forceinline__ unsigned
sample_pair (const unsigned char *p)
{
  return cvmma::bytes_to_halves (*reinterpret_cast <
      const unsigned short *>(p));
}

/* The padded tile of the fragment at (@x0, @y0) for radius @r, edges
 * clamped, one 8-bit plane per blurred channel: a warp a row at a time, a
 * lane four neighbouring pixels, whose samples of a channel go to the plane
 * in one word. */
template < int NC > __device__ void
load_tile (const Frame & frame, const cvcore_fov_plan & plan,
    const Layout & layout, unsigned char *tile, int x0, int y0, int r,
    int span)
{
  for (int tx = 4 * (threadIdx.x & 31); tx < span; tx += 128) {
    size_t column[4];

#pragma unroll
    for (int q = 0; q < 4; q++)
      column[q] = (size_t) cv_clamp_index (x0 - r + tx + q, plan.width) * NC;
    for (int ty = threadIdx.x >> 5; ty < span; ty += kWarps) {
      const unsigned char *row = frame.src + (size_t)
          cv_clamp_index (y0 - r + ty, plan.height) * frame.src_pitch;
      unsigned pixel[4];
      unsigned *word = reinterpret_cast < unsigned *>(tile +
          ty * layout.tile_pitch + tx);

#pragma unroll
      for (int q = 0; q < 4; q++)
        pixel[q] = load_pixel < NC > (row + column[q]);
#pragma unroll
      for (int c = 0; c < NC; c++)
        if (frame.mask >> c & 1) {
          const unsigned pick = c | (c + 4) << 4;

          *word = __byte_perm (__byte_perm (pixel[0], pixel[1], pick),
              __byte_perm (pixel[2], pixel[3], pick), 0x5410);
          word += layout.tile_plane / 4;
        }
    }
  }
}

/* Entry e of the tables holds taps e - kPairOffset and the one after (zero
 * outside the filter), scaled, as the high and the low halves of their
 * split. */
__device__ void
build_pairs (const float *tap, int taps, float scale, int entries,
    unsigned *high, unsigned *low)
{
  for (int e = threadIdx.x; e < entries; e += kThreads) {
    const int k = e - kPairOffset;
    const float w0 = k >= 0 && k < taps ? tap[k] * scale : 0.0f;
    const float w1 = k + 1 >= 0 && k + 1 < taps ? tap[k + 1] * scale : 0.0f;

    cvmma::split_pair (w0, w1, &high[e], &low[e]);
  }
}

/* The three distinct registers of a Toeplitz operand A[m][k] = tap[k - m]
 * from a pair table, @e the entry of this thread's first: rows 8 apart are
 * 8 taps apart. */
__device__ __forceinline__ void
toeplitz_operand (const unsigned *pairs, int e, unsigned a[4])
{
  a[0] = pairs[e];
  a[1] = pairs[e - 8];
  a[2] = pairs[e + 8];
  a[3] = a[0];
}

/* Rows 16 @band.. of a tile plane: for every column x of the fragment and
 * row i, the sum of tap[j - x] plane[i][j] over j, into rows[x][i] of the
 * @high and @low half planes. */
template < int F > __device__ __forceinline__ void
rows_band (const Layout & layout, const unsigned char *plane, int band,
    int m_tiles, int taps, const unsigned *pair_high,
    const unsigned *pair_low, float unscale, __half * high, __half * low)
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
  for (int k = 0; k < 16 * m_tiles; k += 16) {
    const unsigned b[2][2] = { {sample_pair (b0 + k), sample_pair (b0 + k +
                8)}, {sample_pair (b1 + k), sample_pair (b1 + k + 8)}
    };

#pragma unroll
    for (int mt = 0; mt < kM; mt++) {
      /* tap index at this block of A's top-left corner; it holds
       * d - 15 .. d + 15, skipped when all are outside the filter */
      const int d = k - 16 * mt;
      unsigned ah[4], al[4];

      if (d + 15 < 0 || d - 15 >= taps)
        continue;
      toeplitz_operand (pair_high, kPairOffset + d + pair - group, ah);
      toeplitz_operand (pair_low, kPairOffset + d + pair - group, al);
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
 * tap[i - y] rows[x][i] over i, rounded into the output plane @out. */
template < int F > __device__ __forceinline__ void
columns_block (const Layout & layout, const __half * high, int mc, int nt,
    int m_tiles, int taps, const unsigned *pair_high,
    const unsigned *pair_low, float unscale, unsigned char *out)
{
  const int lane = threadIdx.x & 31;
  const int group = lane >> 2, pair = 2 * (lane & 3);
  /* ldmatrix: B[k][n] = rows[8 nt + n][16 kb + k]; lanes 0-7 address
   * k 0-7 of the high part, lanes 8-15 k 8-15, lanes 16-31 the low part's */
  const __half *b_row = high + (lane >> 4) * layout.rows_part +
      (8 * nt + (lane & 7)) * layout.rows_pitch + (lane >> 3 & 1) * 8;
  const int last = min (mc + (taps + 14) / 16, m_tiles - 1);
  float acc[4] = { };

#pragma unroll 1
  for (int kb = mc; kb <= last; kb++) {
    const int e = kPairOffset + 16 * (kb - mc) + pair - group;
    unsigned ah[4], al[4], b[4];

    toeplitz_operand (pair_high, e, ah);
    toeplitz_operand (pair_low, e, al);
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

template < int NC, int F >
__global__ void __launch_bounds__ (kThreads)
foveate_mma (Frame frame, const __grid_constant__ ParamPlan param)
{
  constexpr int kColumnBands = (F + 15) / 16;
  constexpr int kColumnBlocks = F / 8;
  extern __shared__ uint4 shared[];
  const cvcore_fov_plan & plan = param.plan ();
  const Layout layout (F, plan.max_radius, frame.planes);
  unsigned char *base = reinterpret_cast < unsigned char *>(shared);
  unsigned *pair_high = reinterpret_cast < unsigned *>(base);
  unsigned *pair_low = pair_high + layout.pairs;
  __half *rows = reinterpret_cast < __half * >(base + layout.rows_offset);
  unsigned char *tile = base + layout.tile_offset;
  unsigned char *out = base + layout.out_offset;
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int bx = plan.origin_x + blockIdx.x * F;
  const int by = plan.origin_y + blockIdx.y * F;
  const int x0 = max (bx, 0), y0 = max (by, 0);
  const int w = min (bx + F, plan.width) - x0;
  const int h = min (by + F, plan.height) - y0;
  const int f = cv_fov_filter (&plan, blockIdx.x, blockIdx.y);
  /* filter 0 copies */
  const unsigned mask = f > 0 ? frame.mask : 0;

  if (mask) {
    const int r = plan.radius[f], taps = 2 * r + 1, span = F + 2 * r;
    const int m_tiles = (span + 15) / 16;

    build_pairs (plan.taps + plan.offset[f], taps, frame.scale,
        taps + 2 * kPairOffset, pair_high, pair_low);
    load_tile < NC > (frame, plan, layout, tile, x0, y0, r, span);
    for (int p = 0; p < frame.planes; p++) {
      /* the pairs and the tile are in; the previous channel's columns are
       * done with the rows */
      __syncthreads ();
      for (int band = warp; band < m_tiles; band += kWarps)
        rows_band < F > (layout, tile + p * layout.tile_plane, band, m_tiles,
            taps, pair_high, pair_low, frame.unscale, rows,
            rows + layout.rows_part);
      __syncthreads ();
      for (int u = warp; u < kColumnBands * kColumnBlocks; u += kWarps)
        columns_block < F > (layout, rows, u / kColumnBlocks,
            u % kColumnBlocks, m_tiles, taps, pair_high, pair_low,
            frame.unscale, out + p * F * layout.out_pitch);
    }
    __syncthreads ();
  }

  for (int y = warp; y < h; y += kWarps) {
    const unsigned char *s = frame.src + (size_t) (y0 + y) * frame.src_pitch +
        (size_t) x0 * NC;
    unsigned char *d = frame.dst + (size_t) (y0 + y) * frame.dst_pitch +
        (size_t) x0 * NC;

    for (int x = lane; x < w; x += 32) {
      const unsigned char *blurred = out + y * layout.out_pitch + x;
      unsigned v = load_pixel < NC > (s + x * NC);

#pragma unroll
      for (int c = 0; c < NC; c++)
        if (mask >> c & 1) {
          v = (v & ~(0xffu << 8 * c)) | (unsigned) *blurred << 8 * c;
          blurred += F * layout.out_pitch;
        }
      store_pixel < NC > (d + x * NC, v);
    }
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
