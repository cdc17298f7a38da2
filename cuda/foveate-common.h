/* Arithmetic shared by the CPU reference and the CUDA kernel of the
 * foveation, so that both pick the same filters and round the same way. */
#ifndef FOVEATE_COMMON_H
#define FOVEATE_COMMON_H

#include "convolve-common.h"
#include "cvfoveate.h"

/* a * b, never fused with a following addition. */
CV_HD float
cv_mul_rn (float a, float b)
{
#ifdef __CUDA_ARCH__
  return __fmul_rn (a, b);
#else
  return a * b;
#endif
}

/* Column or row of the blur map under offset @d (pixels) from the
 * fixation, in a frame @size pixels across and a map @map_size across. */
CV_HD int
cv_fov_map_index (float d, int size, int map_size)
{
  const int i = (int) floorf (cv_mul_rn (d / (float) size, (float) map_size)
      + 0.5f * (float) map_size);

  return i < 0 ? 0 : i >= map_size ? map_size - 1 : i;
}

/* The filter of fragment (@gx, @gy): with a blur map, that of the level
 * under its centre; otherwise the distance of its centre from the
 * fixation, against the plan's thresholds. */
CV_HD int
cv_fov_filter (const cvcore_fov_plan * plan, int gx, int gy)
{
  const float half = 0.5f * plan->fragment;
  const float dx = (float) (plan->origin_x + gx * plan->fragment) + half -
      plan->fix_x;
  const float dy = (float) (plan->origin_y + gy * plan->fragment) + half -
      plan->fix_y;
  const float d = sqrtf (cv_mul_rn (dx, dx) + cv_mul_rn (dy, dy));
  int f = 0;

  if (plan->map)
    return plan->level_filter[plan->map[(size_t) cv_fov_map_index (dy,
                plan->height, plan->map_h) * plan->map_pitch +
            cv_fov_map_index (dx, plan->width, plan->map_w)]];

  for (int k = 1; k < plan->n_filters; k++)
    if (d >= plan->threshold[k])
      f = k;
  return f;
}

/* Smooth mode: pixel (@x, @y) takes filter *@k with weight 1 - *@t and
 * filter *@k + 1 with weight *@t, by its centre's distance between the two
 * filters' thresholds (where the model's sigma equals the filters'). */
CV_HD void
cv_fov_blend (const cvcore_fov_plan * plan, int x, int y, int *k, float *t)
{
  const float dx = (float) x + 0.5f - plan->fix_x;
  const float dy = (float) y + 0.5f - plan->fix_y;
  const float d = sqrtf (cv_mul_rn (dx, dx) + cv_mul_rn (dy, dy));
  int f = 0;

  for (int i = 1; i < plan->n_filters; i++)
    if (d >= plan->threshold[i])
      f = i;
  *k = f;
  /* the fovea (filter 0) stays sharp up to the first blur's threshold,
   * as the model's sigma is 0 there */
  *t = f > 0 && f + 1 < plan->n_filters ? fminf ((d - plan->threshold[f]) /
      (plan->threshold[f + 1] - plan->threshold[f]), 1.0f) : 0.0f;
}

/* Weight of filter @f at pixel (@x, @y) in smooth mode. */
CV_HD float
cv_fov_blend_weight (const cvcore_fov_plan * plan, int x, int y, int f)
{
  int k;
  float t;

  cv_fov_blend (plan, x, y, &k, &t);
  return f == k ? 1.0f - t : f == k + 1 ? t : 0.0f;
}

/* The filters the pixels [x0, x1) x [y0, y1) blend in smooth mode: the
 * distance grows monotonically away from the fixation, so the corners and
 * the point nearest the fixation bound it. */
CV_HD void
cv_fov_blend_range (const cvcore_fov_plan * plan, int x0, int y0, int x1,
    int y1, int *lo, int *hi)
{
  const int nx = plan->fix_x < x0 ? x0 : plan->fix_x >= x1 ? x1 - 1 :
      (int) plan->fix_x;
  const int ny = plan->fix_y < y0 ? y0 : plan->fix_y >= y1 ? y1 - 1 :
      (int) plan->fix_y;
  const int xs[2] = { x0, x1 - 1 }, ys[2] = { y0, y1 - 1 };
  int k;
  float t;

  cv_fov_blend (plan, nx, ny, &k, &t);
  *lo = k;
  *hi = k;
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) {
      cv_fov_blend (plan, xs[i], ys[j], &k, &t);
      if (t > 0.0f)
        k++;
      if (k > *hi)
        *hi = k;
    }
  /* the pixel nearest the fixation may sit just below its threshold */
  if (*lo > 0)
    (*lo)--;
}

/* A blurred sample, rounded half up (sums of non-negative taps are not
 * negative). */
CV_HD int
cv_fov_round (float v)
{
  const int r = (int) (v + 0.5f);

  return r > 255 ? 255 : r;
}

/* @i clamped to [0, @n). */
CV_HD int
cv_clamp_index (int i, int n)
{
  return i < 0 ? 0 : i >= n ? n - 1 : i;
}

#endif /* FOVEATE_COMMON_H */
