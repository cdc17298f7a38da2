/* What the CLT's CPU reference and CUDA kernels share: the plan of a call
 * (tile grid, windows, the operation's separable factors). */
#ifndef CLT_COMMON_H
#define CLT_COMMON_H

#include "cvclt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct
{
  int width, height, tiles_x, tiles_y;
  cvcore_clt_operation operation;
  /* Integer part of the shift: tiles sample the source this many pixels
   * left (up) of where they write. */
  int offset_x, offset_y;
  /* Forward windows w (n + f) of the shift's fraction f; the inverse
   * window is w (n). */
  double window_x[16], window_y[16], window[16];
  /* Shift: e^{i omega_k f} per frequency, as (cos, sin); lowpass: the
   * Gaussian's response per axis in [k][0]. */
  double factor_x[8][2], factor_y[8][2];
} cv_clt_plan;

/* Fills @plan for frames of @width x @height and @params. */
void cv_clt_plan_init (cv_clt_plan * plan, int width, int height,
    const cvcore_clt_params * params);

/* CPU reference: forward transform of tile (@tx, @ty) of channel @c of
 * @src with @plan's sampling, windows and (for a shift) phase rotation,
 * into @coef [layer][l][k]. */
void cv_clt_cpu_tile_transform (const cvcore_image * src, int c, int tx,
    int ty, const cv_clt_plan * plan, double coef[4][8][8]);

/* cvcore_clt_tiles() for device code too. */
#ifdef __CUDACC__
__host__ __device__
#endif
static inline int
cv_clt_tiles (int pixels)
{
  return (pixels + CVCORE_CLT_STRIDE - 1) / CVCORE_CLT_STRIDE + 1;
}

/* Index of sample @i of a line of @n mirrored at both ends (any @i). */
#ifdef __CUDACC__
__host__ __device__
#endif
static inline int
cv_clt_mirror (int i, int n)
{
  const int period = 2 * n;

  i %= period;
  if (i < 0)
    i += period;
  return i < n ? i : period - 1 - i;
}

#ifdef __cplusplus
}
#endif

#endif /* CLT_COMMON_H */
