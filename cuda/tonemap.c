/* Tone mapping: parameters, the per-size state, the CPU reference in double
 * precision and the dispatch to a backend. */
#include "tonemap-common.h"
#include "tonemap-private.h"
#include "cvcore-private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct cvcore_tonemapper
{
  cvcore_device *device;
  int width, height;
  cv_tm_scratch scratch;        /* device memory (CUDA) */
  bool reset;                   /* the next frame starts afresh */
  /* CPU reference */
  double *luminance;            /* Lw, width x height */
  double *row_sums;             /* prefix sums of L per row, (width + 1) x height */
  cvcore_tm_key key;
};

void
cvcore_tm_params_init (cvcore_tm_params * params)
{
  memset (params, 0, sizeof (*params));
  params->op = CVCORE_TM_LOCAL;
  params->key = 0.18;
  params->auto_key = false;
  params->delta = 1e-4;
  params->white_point = INFINITY;
  params->scales = CVCORE_TM_MAX_SCALES;
  params->phi = 8.0;
  params->epsilon = 0.025;
  params->saturation = 1.0;
  params->input_scale = 1.0;
  params->adaptation_time = 0.0;
  params->primaries = CVCORE_TM_BT709;
  params->dst_bgr = false;
}

int
cvcore_tm_box_edge (int i)
{
  return i >= 0 && i < CVCORE_TM_MAX_SCALES ? cv_tm_edge (i) : 0;
}

cvcore_status
cvcore_tonemapper_new (cvcore_device * device, int width, int height,
    cvcore_tonemapper ** tonemapper)
{
  cvcore_tonemapper *tm;
  cvcore_status status;

  *tonemapper = NULL;
  if (width < 1 || height < 1)
    return cvcore_fail (CVCORE_ERROR_INVALID_VALUE,
        "tone mapping of a %dx%d frame", width, height);
  tm = calloc (1, sizeof (*tm));
  if (tm == NULL)
    return cvcore_fail (CVCORE_ERROR_OUT_OF_MEMORY, "tone mapper");
  tm->device = device;
  tm->width = width;
  tm->height = height;
  tm->reset = true;

  if (device->backend == CVCORE_BACKEND_CPU) {
    tm->luminance = malloc (sizeof (double) * width * height);
    tm->row_sums = malloc (sizeof (double) * (width + 1) * height);
    if (tm->luminance == NULL || tm->row_sums == NULL) {
      cvcore_tonemapper_free (tm);
      return cvcore_fail (CVCORE_ERROR_OUT_OF_MEMORY,
          "tone mapping of %dx%d", width, height);
    }
    *tonemapper = tm;
    return CVCORE_OK;
  }

  status = cvcore_plane_alloc (device, sizeof (float) * width, height,
      (void **) &tm->scratch.luminance, &tm->scratch.luminance_pitch);
  if (status == CVCORE_OK)
    status = cvcore_device_alloc (device,
        sizeof (double) * 3 * CV_TM_MAX_PARTIALS,
        (void **) &tm->scratch.partials);
  if (status == CVCORE_OK)
    status = cvcore_device_alloc (device, sizeof (cvcore_tm_key),
        (void **) &tm->scratch.key);
  if (status != CVCORE_OK) {
    cvcore_tonemapper_free (tm);
    return status;
  }
  *tonemapper = tm;
  return CVCORE_OK;
}

void
cvcore_tonemapper_free (cvcore_tonemapper * tm)
{
  if (tm == NULL)
    return;
  if (tm->scratch.luminance)
    cvcore_device_free (tm->device, tm->scratch.luminance);
  if (tm->scratch.partials)
    cvcore_device_free (tm->device, tm->scratch.partials);
  if (tm->scratch.key)
    cvcore_device_free (tm->device, tm->scratch.key);
  free (tm->luminance);
  free (tm->row_sums);
  free (tm);
}

void
cvcore_tonemapper_reset (cvcore_tonemapper * tm)
{
  tm->reset = true;
}

cvcore_status
cvcore_tonemapper_key (cvcore_tonemapper * tm, cvcore_stream * stream,
    cvcore_tm_key * key)
{
  cvcore_status status;

  if (tm->device->backend == CVCORE_BACKEND_CPU) {
    *key = tm->key;
    return CVCORE_OK;
  }
  status = cvcore_copy_async (stream, key, tm->scratch.key, sizeof (*key),
      CVCORE_COPY_DEVICE_TO_HOST);
  if (status == CVCORE_OK)
    status = cvcore_stream_synchronize (stream);
  return status;
}

/* --- CPU reference ------------------------------------------------------ */

static double
sample_value (const cvcore_image * im, int x, int y, int c)
{
  const unsigned char *row = (const unsigned char *) im->data +
      (size_t) y * im->pitch;
  const size_t i = (size_t) x * im->channels + c;

  if (im->sample == CVCORE_SAMPLE_U16)
    return ((const uint16_t *) row)[i] / 65535.0;
  return row[i] / 255.0;
}

static double
srgb_encode (double v)
{
  v = fmin (fmax (v, 0.0), 1.0);
  return v <= 0.0031308 ? 12.92 * v : 1.055 * pow (v, 1.0 / 2.4) - 0.055;
}

static unsigned char
to_byte (double v)
{
  return (unsigned char) floor (v * 255.0 + 0.5);
}

/* Average of L over box @i around (@x, @y), clipped to the frame. */
static double
box_average (const cvcore_tonemapper * tm, int x, int y, int i)
{
  const int r = cv_tm_edge (i) / 2, w = tm->width;
  const int x0 = x - r < 0 ? 0 : x - r;
  const int x1 = x + r >= w ? w - 1 : x + r;
  const int y0 = y - r < 0 ? 0 : y - r;
  const int y1 = y + r >= tm->height ? tm->height - 1 : y + r;
  double sum = 0.0;

  for (int yy = y0; yy <= y1; yy++)
    sum += tm->row_sums[(size_t) yy * (w + 1) + x1 + 1] -
        tm->row_sums[(size_t) yy * (w + 1) + x0];
  return sum / ((double) (x1 - x0 + 1) * (y1 - y0 + 1));
}

static void
cpu_write_pixel (const cvcore_image * src, const cvcore_image * dst,
    const cvcore_tm_params * params, int x, int y, double lw, double ld)
{
  unsigned char *out = (unsigned char *) dst->data + (size_t) y * dst->pitch +
      (size_t) x * 4;
  double rgb[3];

  for (int c = 0; c < 3; c++) {
    const double v = src->channels == 1 ? 1.0 :
        params->input_scale * sample_value (src, x, y, c) / lw;

    rgb[c] = lw > 0.0 ? srgb_encode (pow (v, params->saturation) * ld) : 0.0;
  }
  out[0] = to_byte (rgb[params->dst_bgr ? 2 : 0]);
  out[1] = to_byte (rgb[1]);
  out[2] = to_byte (rgb[params->dst_bgr ? 0 : 2]);
  out[3] = src->channels == 4 && !params->dst_bgr ?
      to_byte (sample_value (src, x, y, 3)) : 255;
}

static cvcore_status
cpu_tonemap (cvcore_tonemapper * tm, const cvcore_image * src,
    const cvcore_image * dst, const cvcore_tm_params * params, double dt)
{
  const int w = tm->width, h = tm->height;
  const double ts = pow (2.0, params->phi);
  double weights[3], log_sum = 0.0, log_min = INFINITY, log_max = -INFINITY;
  cvcore_tm_key key;

  cv_tm_weights (params->primaries, weights);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      double lw = 0.0, lg;

      if (src->channels == 1)
        lw = sample_value (src, x, y, 0);
      else
        for (int c = 0; c < 3; c++)
          lw += weights[c] * sample_value (src, x, y, c);
      lw *= params->input_scale;
      tm->luminance[(size_t) y * w + x] = lw;
      lg = log (params->delta + lw);
      log_sum += lg;
      log_min = fmin (log_min, lg);
      log_max = fmax (log_max, lg);
    }
  cv_tm_update_key (params, log_sum, log_min, log_max, (double) w * h, dt,
      tm->reset, &tm->key, &key);
  tm->key = key;
  tm->reset = false;

  if (params->op == CVCORE_TM_LOCAL)
    for (int y = 0; y < h; y++) {
      double *sums = tm->row_sums + (size_t) y * (w + 1);

      sums[0] = 0.0;
      for (int x = 0; x < w; x++)
        sums[x + 1] = sums[x] + key.scale * tm->luminance[(size_t) y * w + x];
    }

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      const double lw = tm->luminance[(size_t) y * w + x];
      const double l = key.scale * lw;
      double ld;

      if (params->op == CVCORE_TM_LOCAL) {
        /* s_max: the largest centre with W under epsilon for it and
         * every smaller centre (0 when even the first fails). */
        double centre = l, vc = l;

        for (int i = 0; i + 1 < params->scales; i++) {
          const double vs = box_average (tm, x, y, i + 1);

          if (!cv_tm_keeps_walking (vc, vs, i, ts * key.exposure,
                  params->epsilon))
            break;
          centre = vc;
          vc = vs;
        }
        ld = l / (1.0 + centre);
      } else {
        ld = cv_tm_global (l, params->white_point);
      }
      cpu_write_pixel (src, dst, params, x, y, lw, ld);
    }
  return CVCORE_OK;
}

/* --- dispatch ----------------------------------------------------------- */

static bool
params_valid (const cvcore_tm_params * p)
{
  return p->key > 0.0 && isfinite (p->key) && p->delta > 0.0
      && isfinite (p->delta) && p->white_point > 0.0
      && p->scales >= 2 && p->scales <= CVCORE_TM_MAX_SCALES
      && isfinite (p->phi) && p->epsilon >= 0.0 && p->saturation >= 0.0
      && isfinite (p->saturation) && p->input_scale > 0.0
      && isfinite (p->input_scale) && p->adaptation_time >= 0.0
      && (p->op == CVCORE_TM_GLOBAL || p->op == CVCORE_TM_LOCAL);
}

cvcore_status
cvcore_tonemap (cvcore_stream * stream, cvcore_tonemapper * tm,
    const cvcore_image * src, const cvcore_image * dst,
    const cvcore_tm_params * params, double dt)
{
  if (src->width != tm->width || src->height != tm->height
      || dst->width != tm->width || dst->height != tm->height
      || (src->channels != 1 && src->channels != 4) || dst->channels != 4
      || dst->sample != CVCORE_SAMPLE_U8)
    return cvcore_fail (CVCORE_ERROR_INVALID_VALUE,
        "tone mapping of %dx%dx%d into %dx%dx%d with a %dx%d tone mapper",
        src->width, src->height, src->channels, dst->width, dst->height,
        dst->channels, tm->width, tm->height);
  if (!params_valid (params))
    return cvcore_fail (CVCORE_ERROR_INVALID_VALUE,
        "tone mapping parameters out of range");
  if (cvcore_stream_device (stream) != tm->device)
    return cvcore_fail (CVCORE_ERROR_INVALID_VALUE,
        "tone mapper and stream of different devices");

  switch (tm->device->backend) {
    case CVCORE_BACKEND_CPU:
      return cpu_tonemap (tm, src, dst, params, dt);
#ifdef CVCORE_HAVE_CUDA
    case CVCORE_BACKEND_CUDA:{
      cvcore_status status = cvcore_cuda_tonemap (stream, &tm->scratch, src,
          dst, params, dt, tm->reset);

      if (status == CVCORE_OK)
        tm->reset = false;
      return status;
    }
#endif
    default:
      return cvcore_fail (CVCORE_ERROR_NOT_BUILT, "no such backend");
  }
}
