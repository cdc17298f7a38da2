/* The complex lapped transform: plan, scratch, the CPU reference in double
 * precision and the dispatch to a backend. */
#include "clt-common.h"
#include "cvcore-private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CV_PI 3.14159265358979323846

#ifdef CVCORE_HAVE_CUDA
cvcore_status cvcore_cuda_clt (cvcore_stream * stream,
    const cvcore_image * src, const cvcore_image * dst,
    const cvcore_clt_params * params, const cv_clt_plan * plan,
    float *planes, size_t plane_pitch, const float *kernels,
    const cvcore_clt_kernel_set * set, const cvcore_image * colours);
cvcore_status cvcore_cuda_clt_forward (cvcore_stream * stream,
    const cvcore_image * src, int channel, const cv_clt_plan * plan,
    float *coefficients);
#endif

struct cvcore_clt_scratch
{
  cvcore_device *device;
  int width, height, channels;
  /* CUDA: per processed channel, the four quadrants of every tile's
   * inverse (see clt.cu); CPU: one double plane per channel. */
  void *planes;
  size_t plane_pitch;
  /* The kernel set on the device, and its shape (data unused). */
  float *kernels;
  cvcore_clt_kernel_set set;
  /* Whether it takes mosaics; CUDA keeps a mosaic's colours, interpolated
   * once per frame, 16-bit so that either depth fits (allocated at the
   * first frame that interpolates: sparse mosaics need none). */
  bool mosaics;
  void *colours;
  size_t colours_pitch;
};

int
cvcore_clt_tiles (int pixels)
{
  return cv_clt_tiles (pixels);
}

void
cvcore_clt_params_init (cvcore_clt_params * params)
{
  memset (params, 0, sizeof (*params));
  params->operation = CVCORE_CLT_NONE;
  params->sigma = 1.0;
  params->channel_mask = 1;
  params->mosaic_method = CVCORE_CLT_MOSAIC_SPARSE;
}

static double
omega (int k)
{
  return CV_PI * (k + 0.5) / 8.0;
}

void
cv_clt_plan_init (cv_clt_plan * plan, int width, int height,
    const cvcore_clt_params * params)
{
  double fx = 0.0, fy = 0.0;

  memset (plan, 0, sizeof (*plan));
  plan->width = width;
  plan->height = height;
  plan->tiles_x = cvcore_clt_tiles (width);
  plan->tiles_y = cvcore_clt_tiles (height);
  plan->operation = params->operation;
  plan->bayer = params->bayer;
  plan->sparse = params->bayer
      && params->mosaic_method == CVCORE_CLT_MOSAIC_SPARSE;
  for (int k = 0; k < 8; k++)
    plan->demosaic[k] = 1.0 + cos (CV_PI * k / 7.0);
  if (params->operation == CVCORE_CLT_SHIFT) {
    plan->offset_x = (int) lround (params->shift_x);
    plan->offset_y = (int) lround (params->shift_y);
    fx = params->shift_x - plan->offset_x;
    fy = params->shift_y - plan->offset_y;
  }
  for (int n = 0; n < 16; n++) {
    plan->window[n] = sin (CV_PI * (n + 0.5) / 16.0);
    plan->window_x[n] = sin (CV_PI * (n + 0.5 + fx) / 16.0);
    plan->window_y[n] = sin (CV_PI * (n + 0.5 + fy) / 16.0);
  }
  for (int k = 0; k < 8; k++) {
    if (params->operation == CVCORE_CLT_SHIFT) {
      plan->factor_x[k][0] = cos (omega (k) * fx);
      plan->factor_x[k][1] = sin (omega (k) * fx);
      plan->factor_y[k][0] = cos (omega (k) * fy);
      plan->factor_y[k][1] = sin (omega (k) * fy);
    } else if (params->operation == CVCORE_CLT_LOWPASS) {
      const double s2 = params->sigma * params->sigma;

      /* unit gain at omega_0, where a flat region's windowed tiles lie
       * entirely (see cvclt.h) */
      plan->factor_x[k][0] = exp (-0.5 * s2 * (omega (k) * omega (k) -
              omega (0) * omega (0)));
      plan->factor_y[k][0] = plan->factor_x[k][0];
    } else {
      plan->factor_x[k][0] = plan->factor_y[k][0] = 1.0;
    }
  }
}

/* --- CPU reference ------------------------------------------------------ */

/* Orthonormal 8-point DCT-IV (DST-IV when @sine); both are their own
 * inverses. */
static void
dct4 (const double *in, double *out, bool sine)
{
  static double basis[2][8][8];
  static bool made;

  if (!made) {
    for (int k = 0; k < 8; k++)
      for (int i = 0; i < 8; i++) {
        basis[0][k][i] = 0.5 * cos (CV_PI / 8.0 * (k + 0.5) * (i + 0.5));
        basis[1][k][i] = 0.5 * sin (CV_PI / 8.0 * (k + 0.5) * (i + 0.5));
      }
    made = true;
  }
  for (int k = 0; k < 8; k++) {
    double s = 0.0;

    for (int i = 0; i < 8; i++)
      s += basis[sine][k][i] * in[i];
    out[k] = s;
  }
}

/* 16 windowed samples to the 8 that the DCT-IV (DST-IV) of the MDCT
 * (MDST) takes. */
static void
fold (const double *u, double *f, bool sine)
{
  for (int i = 0; i < 4; i++)
    f[i] = (sine ? u[11 - i] : -u[11 - i]) - u[12 + i];
  for (int i = 4; i < 8; i++)
    f[i] = u[i - 4] + (sine ? u[11 - i] : -u[11 - i]);
}

/* The transpose of fold(), added into @u. */
static void
unfold_add (const double *g, double *u, bool sine)
{
  for (int i = 0; i < 4; i++) {
    u[11 - i] += sine ? g[i] : -g[i];
    u[12 + i] -= g[i];
  }
  for (int i = 4; i < 8; i++) {
    u[i - 4] += g[i];
    u[11 - i] += sine ? g[i] : -g[i];
  }
}

static double
sample_at (const cvcore_image * im, int x, int y, int c)
{
  const uint8_t *row = (const uint8_t *) im->data + (size_t) y * im->pitch;

  if (im->sample == CVCORE_SAMPLE_U16)
    return ((const uint16_t *) row)[x * im->channels + c];
  return row[x * im->channels + c];
}

/* Forward transform of tile (@tx, @ty) of channel @c into @coef
 * [layer][l][k]. */
static void
cpu_tile_forward (const cvcore_image * src, int c, int tx, int ty,
    const cv_clt_plan * plan, double coef[4][8][8])
{
  double u[16][16], h[2][16][8], f[8], col[16], out[8];

  for (int m = 0; m < 16; m++) {
    const int y = cv_clt_mirror (8 * ty - 8 + m - plan->offset_y,
        src->height);

    for (int n = 0; n < 16; n++) {
      const int x = cv_clt_mirror (8 * tx - 8 + n - plan->offset_x,
          src->width);

      const int wide = src->sample == CVCORE_SAMPLE_U16;
      double v;

      if (plan->sparse)
        v = cv_clt_sparse_sample (src->data, src->pitch, wide, src->width,
            src->height, plan->bayer, 8 * tx - 8 + n - plan->offset_x,
            8 * ty - 8 + m - plan->offset_y, c);
      else if (plan->bayer)     /* interpolated to the sample's precision */
        v = floor (cv_clt_bayer_sample (src->data, src->pitch, wide,
                src->width, src->height, plan->bayer, x, y, c) + 0.5);
      else
        v = sample_at (src, x, y, c);

      u[m][n] = v * plan->window_x[n] * plan->window_y[m];
    }
    for (int s = 0; s < 2; s++) {
      fold (u[m], f, s);
      dct4 (f, h[s][m], s);
    }
  }
  for (int layer = 0; layer < 4; layer++) {
    const int hk = layer & 1, vk = layer >> 1;

    for (int k = 0; k < 8; k++) {
      for (int m = 0; m < 16; m++)
        col[m] = h[hk][m][k];
      fold (col, f, vk);
      dct4 (f, out, vk);
      for (int l = 0; l < 8; l++)
        coef[layer][l][k] = out[l];
    }
  }
}

/* T <- T H, tessarines (re, i, j, ij) with i^2 = j^2 = -1, ij = ji. */
static void
tessarine_multiply (double t[4], const double h[4])
{
  const double a = t[0], b = t[1], c = t[2], d = t[3];

  t[0] = a * h[0] - b * h[1] - c * h[2] + d * h[3];
  t[1] = a * h[1] + b * h[0] - c * h[3] - d * h[2];
  t[2] = a * h[2] + c * h[0] - b * h[3] - d * h[1];
  t[3] = a * h[3] + d * h[0] + b * h[2] + c * h[1];
}

/* The deconvolution response of tile (@tx, @ty) at (@l, @k): the four
 * nearest nodes' responses, bilinearly. */
static void
kernel_response (const cvcore_clt_kernel_set * set, const float *kernels,
    int channel, int tx, int ty, int l, int k, double h[4])
{
  const double px = (double) tx / set->stride, py = (double) ty / set->stride;
  const int x0 = (int) fmin (floor (px), set->nodes_x - 1);
  const int y0 = (int) fmin (floor (py), set->nodes_y - 1);
  const int x1 = x0 + 1 < set->nodes_x ? x0 + 1 : x0;
  const int y1 = y0 + 1 < set->nodes_y ? y0 + 1 : y0;
  const double ax = fmin (px - x0, 1.0), ay = fmin (py - y0, 1.0);
  const size_t node = CVCORE_CLT_COEFFICIENTS;
  const float *base = kernels + (size_t) channel * set->nodes_y *
      set->nodes_x * node;

  for (int layer = 0; layer < 4; layer++) {
    const size_t i = layer * 64 + l * 8 + k;
    const double v00 = base[((size_t) y0 * set->nodes_x + x0) * node + i];
    const double v01 = base[((size_t) y0 * set->nodes_x + x1) * node + i];
    const double v10 = base[((size_t) y1 * set->nodes_x + x0) * node + i];
    const double v11 = base[((size_t) y1 * set->nodes_x + x1) * node + i];

    h[layer] = (1.0 - ay) * ((1.0 - ax) * v00 + ax * v01) +
        ay * ((1.0 - ax) * v10 + ax * v11);
  }
}

/* The operation on tile (@tx, @ty) of colour (or channel) @c, after a
 * sparse mosaic's colour is filled in. */
static void
cpu_tile_operate (const cvcore_clt_scratch * clt, const cv_clt_plan * plan,
    int c, int kernel_channel, int tx, int ty, double coef[4][8][8])
{
  for (int l = 0; l < 8 && plan->sparse; l++)
    for (int k = 0; k < 8; k++)
      for (int layer = 0; layer < 4; layer++)
        coef[layer][l][k] *= cv_clt_demosaic_response (plan->demosaic, c, k,
            l);
  if (plan->operation == CVCORE_CLT_NONE)
    return;
  for (int l = 0; l < 8; l++)
    for (int k = 0; k < 8; k++) {
      double t[4], h[4];

      for (int layer = 0; layer < 4; layer++)
        t[layer] = coef[layer][l][k];
      if (plan->operation == CVCORE_CLT_DECONVOLVE) {
        kernel_response (&clt->set, clt->kernels, kernel_channel, tx, ty, l,
            k, h);
      } else {
        const double *fx = plan->factor_x[k], *fy = plan->factor_y[l];

        h[0] = fx[0] * fy[0];
        h[1] = fx[1] * fy[0];
        h[2] = fx[0] * fy[1];
        h[3] = fx[1] * fy[1];
      }
      tessarine_multiply (t, h);
      for (int layer = 0; layer < 4; layer++)
        coef[layer][l][k] = t[layer];
    }
}

/* Inverse of one tile, the average of the four layers' inverses, added
 * into the frame-sized @acc. */
static void
cpu_tile_inverse (double coef[4][8][8], int tx, int ty,
    const cv_clt_plan * plan, double *acc)
{
  double v[2][16][8], out[16][16], col[8], g[8], u[16];

  memset (v, 0, sizeof (v));
  memset (out, 0, sizeof (out));
  for (int layer = 0; layer < 4; layer++) {
    const int hk = layer & 1, vk = layer >> 1;

    for (int k = 0; k < 8; k++) {
      for (int l = 0; l < 8; l++)
        col[l] = coef[layer][l][k];
      dct4 (col, g, vk);
      memset (u, 0, sizeof (u));
      unfold_add (g, u, vk);
      for (int m = 0; m < 16; m++)
        v[hk][m][k] += u[m];
    }
  }
  for (int hk = 0; hk < 2; hk++)
    for (int m = 0; m < 16; m++) {
      dct4 (v[hk][m], g, hk);
      unfold_add (g, out[m], hk);
    }
  for (int m = 0; m < 16; m++) {
    const int y = 8 * ty - 8 + m;

    if (y < 0 || y >= plan->height)
      continue;
    for (int n = 0; n < 16; n++) {
      const int x = 8 * tx - 8 + n;

      if (x >= 0 && x < plan->width)
        acc[(size_t) y * plan->width + x] += 0.25 * plan->window[m] *
            plan->window[n] * out[m][n];
    }
  }
}

static void
store_sample (const cvcore_image * dst, int x, int y, int c, double v)
{
  uint8_t *row = (uint8_t *) dst->data + (size_t) y * dst->pitch;
  const double full = dst->sample == CVCORE_SAMPLE_U16 ? 65535.0 : 255.0;
  const double r = fmin (fmax (floor (v + 0.5), 0.0), full);

  if (dst->sample == CVCORE_SAMPLE_U16)
    ((uint16_t *) row)[x * dst->channels + c] = (uint16_t) r;
  else
    row[x * dst->channels + c] = (uint8_t) r;
}

/* Where colour (or channel) @c's result goes: the sites of that colour of
 * a mosaic, channel @c of RGBA from a mosaic, or channel @c. */
static void
cpu_store_channel (const cvcore_image * dst, const cv_clt_plan * plan,
    int c, const double *acc)
{
  for (int y = 0; y < dst->height; y++)
    for (int x = 0; x < dst->width; x++) {
      const double v = acc[(size_t) y * plan->width + x];

      if (!plan->bayer || dst->channels == 4)
        store_sample (dst, x, y, c, v);
      else if (cv_clt_bayer_colour (plan->bayer, x, y) == c)
        store_sample (dst, x, y, 0, v);
    }
}

static cvcore_status
cpu_clt (cvcore_clt_scratch * clt, const cvcore_image * src,
    const cvcore_image * dst, const cvcore_clt_params * params,
    const cv_clt_plan * plan)
{
  double *acc = clt->planes;
  const size_t n = (size_t) plan->width * plan->height;
  const int planes = plan->bayer ? 3 : src->channels;

  for (int c = 0; c < planes; c++) {
    if (!plan->bayer && !(params->channel_mask & (1u << c))) {
      for (int y = 0; y < src->height; y++)
        for (int x = 0; x < src->width; x++)
          store_sample (dst, x, y, c, sample_at (src, x, y, c));
      continue;
    }
    memset (acc, 0, n * sizeof (double));
    for (int ty = 0; ty < plan->tiles_y; ty++)
      for (int tx = 0; tx < plan->tiles_x; tx++) {
        double coef[4][8][8];

        cpu_tile_forward (src, c, tx, ty, plan, coef);
        cpu_tile_operate (clt, plan, c, clt->set.channels != 3 ? 0 :
            plan->bayer ? c : params->kernel_channel[c], tx, ty, coef);
        cpu_tile_inverse (coef, tx, ty, plan, acc);
      }
    cpu_store_channel (dst, plan, c, acc);
  }
  /* RGBA from a mosaic is opaque */
  if (plan->bayer && dst->channels == 4)
    for (int y = 0; y < dst->height; y++)
      for (int x = 0; x < dst->width; x++)
        store_sample (dst, x, y, 3, 65535.0);
  return CVCORE_OK;
}

void
cv_clt_cpu_tile_transform (const cvcore_image * src, int c, int tx, int ty,
    const cv_clt_plan * plan, double coef[4][8][8])
{
  cpu_tile_forward (src, c, tx, ty, plan, coef);
  if (plan->operation == CVCORE_CLT_SHIFT)
    cpu_tile_operate (NULL, plan, c, 0, tx, ty, coef);
}

/* --- scratch and dispatch ----------------------------------------------- */

cvcore_status
cvcore_clt_scratch_new (cvcore_device * device, int width, int height,
    int channels, bool mosaics, cvcore_clt_scratch ** clt)
{
  cvcore_clt_scratch *s;
  cvcore_status status;

  *clt = NULL;
  if (width < 1 || height < 1 || channels < 1 || channels > 4
      || (mosaics && channels != 3))
    return cvcore_fail (CVCORE_ERROR_INVALID_VALUE,
        "CLT of %dx%d with %d channels%s", width, height, channels,
        mosaics ? " and mosaics" : "");
  s = calloc (1, sizeof (*s));
  if (s == NULL)
    return cvcore_fail (CVCORE_ERROR_OUT_OF_MEMORY, "CLT scratch");
  s->device = device;
  s->width = width;
  s->height = height;
  s->channels = channels;
  if (device->backend == CVCORE_BACKEND_CPU) {
    status = cvcore_device_alloc (device, sizeof (double) * width * height,
        &s->planes);
  } else {
    /* 4 quadrant planes per channel of tiles_y * 8 rows of tiles_x * 8 */
    status = cvcore_plane_alloc (device, sizeof (float) * 8 *
        cvcore_clt_tiles (width), (size_t) 4 * channels * 8 *
        cvcore_clt_tiles (height), &s->planes, &s->plane_pitch);
  }
  s->mosaics = mosaics;
  if (status != CVCORE_OK) {
    cvcore_clt_scratch_free (s);
    return status;
  }
  *clt = s;
  return CVCORE_OK;
}

void
cvcore_clt_scratch_free (cvcore_clt_scratch * clt)
{
  if (clt == NULL)
    return;
  if (clt->planes)
    cvcore_device_free (clt->device, clt->planes);
  if (clt->kernels)
    cvcore_device_free (clt->device, clt->kernels);
  if (clt->colours)
    cvcore_device_free (clt->device, clt->colours);
  free (clt);
}

cvcore_status
cvcore_clt_set_kernels (cvcore_clt_scratch * clt, cvcore_stream * stream,
    const cvcore_clt_kernel_set * set)
{
  const size_t bytes = sizeof (float) * CVCORE_CLT_COEFFICIENTS *
      set->channels * set->nodes_x * set->nodes_y;
  cvcore_status status;

  if (set->width != clt->width || set->height != clt->height)
    return cvcore_fail (CVCORE_ERROR_INVALID_VALUE,
        "the kernel set is for %dx%d frames, these are %dx%d", set->width,
        set->height, clt->width, clt->height);
  if (clt->kernels)
    cvcore_device_free (clt->device, clt->kernels);
  clt->kernels = NULL;
  status = cvcore_device_alloc (clt->device, bytes, (void **) &clt->kernels);
  if (status != CVCORE_OK)
    return status;
  if (clt->device->backend == CVCORE_BACKEND_CPU) {
    status = cvcore_copy_async (stream, clt->kernels, set->data, bytes,
        CVCORE_COPY_HOST_TO_DEVICE);
  } else {
    /* CUDA lanes read each response as [layer][k][l] */
    float *t = malloc (bytes);

    if (t == NULL)
      return cvcore_fail (CVCORE_ERROR_OUT_OF_MEMORY, "kernel set");
    for (size_t node = 0; node < bytes / sizeof (float) / 256; node++)
      for (int i = 0; i < 256; i++)
        t[node * 256 + (i & ~63) + (i & 7) * 8 + (i >> 3 & 7)] =
            set->data[node * 256 + i];
    status = cvcore_copy_async (stream, clt->kernels, t, bytes,
        CVCORE_COPY_HOST_TO_DEVICE);
    /* the copy reads @t before the stream goes on */
    if (status == CVCORE_OK)
      status = cvcore_stream_synchronize (stream);
    free (t);
  }
  clt->set = *set;
  clt->set.data = NULL;
  return status;
}

/* A 2x2 cell of red, green and blue sites, each colour present. */
static bool
valid_pattern (unsigned pattern)
{
  unsigned seen = 0;

  if (pattern >> 8)
    return false;
  for (int i = 0; i < 4; i++) {
    const unsigned colour = pattern >> (2 * i) & 3;

    if (colour > 2)
      return false;
    seen |= 1u << colour;
  }
  return seen == 7;
}

static bool
valid_params (const cvcore_clt_params * p)
{
  return p->operation >= CVCORE_CLT_NONE
      && p->operation <= CVCORE_CLT_DECONVOLVE
      && fabs (p->shift_x) <= CVCORE_CLT_MAX_SHIFT
      && fabs (p->shift_y) <= CVCORE_CLT_MAX_SHIFT
      && p->sigma >= 0.0 && p->sigma <= CVCORE_CLT_MAX_SIGMA
      && (p->mosaic_method == CVCORE_CLT_MOSAIC_INTERPOLATE
      || p->mosaic_method == CVCORE_CLT_MOSAIC_SPARSE);
}

cvcore_status
cvcore_clt (cvcore_stream * stream, cvcore_clt_scratch * clt,
    const cvcore_image * src, const cvcore_image * dst,
    const cvcore_clt_params * params)
{
  cv_clt_plan plan;
  int processed = 0;
  bool channels_fit;

  for (int c = 0; c < src->channels; c++)
    processed += (params->channel_mask >> c) & 1;
  if (params->bayer)
    channels_fit = src->channels == 1 && (dst->channels == 1
        || dst->channels == 4) && clt->mosaics && valid_pattern
        (params->bayer);
  else
    channels_fit = dst->channels == src->channels && src->channels >= 1
        && src->channels <= 4 && processed <= clt->channels;
  if (src->width != clt->width || src->height != clt->height
      || dst->width != src->width || dst->height != src->height
      || dst->sample != src->sample || !channels_fit)
    return cvcore_fail (CVCORE_ERROR_INVALID_VALUE,
        "CLT of %dx%dx%d%s into %dx%dx%d with a %dx%d scratch of %d "
        "channels%s", src->width, src->height, src->channels,
        params->bayer ? " (mosaic)" : "", dst->width, dst->height,
        dst->channels, clt->width, clt->height, clt->channels,
        clt->mosaics ? " and mosaics" : "");
  if (!valid_params (params))
    return cvcore_fail (CVCORE_ERROR_INVALID_VALUE,
        "CLT parameters out of range (shift %g, %g, sigma %g)",
        params->shift_x, params->shift_y, params->sigma);
  if (params->operation == CVCORE_CLT_DECONVOLVE) {
    if (clt->kernels == NULL)
      return cvcore_fail (CVCORE_ERROR_INVALID_VALUE,
          "deconvolution without a kernel set");
    for (int c = 0; c < src->channels && clt->set.channels == 3
        && !params->bayer; c++)
      if ((params->channel_mask >> c & 1) && (params->kernel_channel[c] < 0
              || params->kernel_channel[c] > 2))
        return cvcore_fail (CVCORE_ERROR_INVALID_VALUE,
            "kernel channel %d of channel %d", params->kernel_channel[c], c);
  }
  if (cvcore_stream_device (stream) != clt->device)
    return cvcore_fail (CVCORE_ERROR_INVALID_VALUE,
        "CLT scratch and stream of different devices");
  cv_clt_plan_init (&plan, src->width, src->height, params);
  switch (clt->device->backend) {
    case CVCORE_BACKEND_CPU:
      return cpu_clt (clt, src, dst, params, &plan);
#ifdef CVCORE_HAVE_CUDA
    case CVCORE_BACKEND_CUDA:{
      cvcore_image colours = { NULL, 0, src->width, src->height, 4,
        src->sample
      };

      /* a mosaic's colours, interpolated, as 4 samples of up to 16 bits */
      if (params->bayer && params->mosaic_method ==
          CVCORE_CLT_MOSAIC_INTERPOLATE && clt->colours == NULL) {
        cvcore_status status = cvcore_plane_alloc (clt->device,
            4 * sizeof (uint16_t) * (size_t) src->width, src->height,
            &clt->colours, &clt->colours_pitch);

        if (status != CVCORE_OK)
          return status;
      }
      colours.data = clt->colours;
      colours.pitch = clt->colours_pitch;
      return cvcore_cuda_clt (stream, src, dst, params, &plan, clt->planes,
          clt->plane_pitch, clt->kernels, &clt->set,
          params->bayer && !plan.sparse ? &colours : NULL);
    }
#endif
    default:
      return cvcore_fail (CVCORE_ERROR_NOT_BUILT, "no such backend");
  }
}

cvcore_status
cvcore_clt_forward (cvcore_stream * stream, const cvcore_image * src,
    int channel, int offset_x, int offset_y, float *coefficients)
{
  cvcore_device *device = cvcore_stream_device (stream);
  cvcore_clt_params params;
  cv_clt_plan plan;

  if (channel < 0 || channel >= src->channels || src->width < 1
      || src->height < 1)
    return cvcore_fail (CVCORE_ERROR_INVALID_VALUE,
        "CLT of channel %d of a %dx%dx%d image", channel, src->width,
        src->height, src->channels);
  if (abs (offset_x) > CVCORE_CLT_MAX_SHIFT
      || abs (offset_y) > CVCORE_CLT_MAX_SHIFT)
    return cvcore_fail (CVCORE_ERROR_INVALID_VALUE,
        "CLT sampling offset %d, %d", offset_x, offset_y);
  cvcore_clt_params_init (&params);
  params.operation = CVCORE_CLT_SHIFT;
  params.shift_x = offset_x;
  params.shift_y = offset_y;
  cv_clt_plan_init (&plan, src->width, src->height, &params);
  switch (device->backend) {
    case CVCORE_BACKEND_CPU:
      for (int ty = 0; ty < plan.tiles_y; ty++)
        for (int tx = 0; tx < plan.tiles_x; tx++) {
          double coef[4][8][8];
          float *out = coefficients + ((size_t) ty * plan.tiles_x + tx) *
              CVCORE_CLT_COEFFICIENTS;

          cpu_tile_forward (src, channel, tx, ty, &plan, coef);
          for (int i = 0; i < CVCORE_CLT_COEFFICIENTS; i++)
            out[i] = (float) ((const double *) coef)[i];
        }
      return CVCORE_OK;
#ifdef CVCORE_HAVE_CUDA
    case CVCORE_BACKEND_CUDA:
      return cvcore_cuda_clt_forward (stream, src, channel, &plan,
          coefficients);
#endif
    default:
      return cvcore_fail (CVCORE_ERROR_NOT_BUILT, "no such backend");
  }
}
