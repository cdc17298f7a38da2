/* Gabor filtering: coefficients, the scratch, the CPU reference in double
 * precision and the dispatch to a backend. */
#include "gabor-common.h"
#include "cvcore-private.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CV_PI 3.14159265358979323846

#ifdef CVCORE_HAVE_CUDA
cvcore_status cvcore_cuda_gabor (cvcore_stream * stream,
    const cv_gabor_device_scratch * scratch, const cvcore_image * src,
    const cvcore_image * dst, const cvcore_gabor_params * params,
    const cv_gabor_plan * plan);
#endif

struct cvcore_gabor_scratch
{
  cvcore_device *device;
  int width, height, max_filters;
  /* complex planes, one per filter: float on CUDA, double on the CPU */
  void *planes;
  size_t plane_pitch;           /* bytes between rows */
  cv_gabor_device_scratch dev;  /* CUDA: the planes and the rest */
  cv_gabor_plan plan;
  cvcore_gabor_params planned;  /* what the plan was made for */
  bool plan_valid;
};

void
cvcore_gabor_params_init (cvcore_gabor_params * params)
{
  memset (params, 0, sizeof (*params));
  params->sigma = 4.0;
  params->wavelength = 8.0;
  params->orientation = 0.0;
  params->orientations = 1;
  params->method = CVCORE_GABOR_RECURSIVE;
  params->output = CVCORE_GABOR_MAGNITUDE;
  params->gain = 1.0;
  params->weight[0] = 1.0;
}

/* Variance of the two-sided filter whose causal poles are @d^(1/q). */
static double
pole_variance (const double complex d[3], double q)
{
  double v = 0.0;

  for (int k = 0; k < 3; k++) {
    const double complex z = cpow (d[k], 1.0 / q);

    v += 2.0 * creal (z / ((z - 1.0) * (z - 1.0)));
  }
  return v;
}

/* The recursive Gaussian of van Vliet, Young and Verbeek (third order, the
 * poles of their 1998 design scaled by 1/q so that the impulse response
 * has variance sigma^2; Young and van Vliet's 1995 q formula gives a few
 * per cent RMS error at small sigma): feedback a[k] (for w[n - 1 - k]),
 * gain b and poles r[k]. */
static void
young_van_vliet (double sigma, double a[3], double *b, double complex r[3])
{
  const double complex d[3] = { 1.4165 + 1.00829 * I, 1.4165 - 1.00829 * I,
    1.86543
  };
  double lo = 0.01, hi = 100.0, q;

  /* the variance grows with q */
  for (int i = 0; i < 80; i++) {
    q = 0.5 * (lo + hi);
    if (pole_variance (d, q) < sigma * sigma)
      lo = q;
    else
      hi = q;
  }
  q = 0.5 * (lo + hi);
  for (int k = 0; k < 3; k++)
    r[k] = 1.0 / cpow (d[k], 1.0 / q);
  /* 1 / prod (1 - r_k z^-1) = 1 / (1 - a1 z^-1 - a2 z^-2 - a3 z^-3) */
  a[0] = creal (r[0] + r[1] + r[2]);
  a[1] = -creal (r[0] * r[1] + r[0] * r[2] + r[1] * r[2]);
  a[2] = creal (r[0] * r[1] * r[2]);
  *b = 1.0 - (a[0] + a[1] + a[2]);
}

static void
set_complex (double out[2], double complex v)
{
  out[0] = creal (v);
  out[1] = cimag (v);
}

/* The pass at angular frequency @omega; returns its gain at frequency 0. */
static double
init_pass (cv_gabor_pass * pass, const double a[3], double b,
    const double complex r[3], double omega)
{
  double complex causal = 1.0, anticausal = 1.0;

  pass->omega = omega;
  for (int dir = 0; dir < 2; dir++) {
    double complex state = b;

    for (int k = 0; k < 3; k++) {
      const double complex p = r[k] * cexp ((dir ? -I : I) * omega);

      set_complex (pass->pole[dir][k], p);
      state /= 1.0 - p;
      set_complex (pass->init[dir][k], state);
    }
  }
  for (int k = 0; k < 3; k++) {
    const double complex c = a[k] * cexp (I * (k + 1) * omega);
    const double complex d = a[k] * cexp (-I * (k + 1) * omega);

    set_complex (pass->c[k], c);
    set_complex (pass->d[k], d);
    causal -= c;
    anticausal -= d;
  }
  set_complex (pass->causal_init, b / causal);
  set_complex (pass->anticausal_init, b / anticausal);
  return creal (b * b / (causal * anticausal));
}

static bool
has_row_pass (const cv_gabor_plan * plan, int f)
{
  for (int i = 0; i < plan->n_row_passes; i++)
    if (plan->row_passes[i] == f)
      return true;
  return false;
}

void
cv_gabor_plan_init (cv_gabor_plan * plan, const cvcore_gabor_params * params)
{
  const double omega = 2.0 * CV_PI / params->wavelength;
  double a[3];
  double complex r[3];

  memset (plan, 0, sizeof (*plan));
  plan->orientations = params->orientations;
  plan->n_filters = params->orientations + 1;
  plan->method = params->method;
  plan->sigma = params->sigma;
  plan->radius = (int) ceil (4.0 * params->sigma);
  young_van_vliet (params->sigma, a, &plan->b, r);
  for (int f = 0; f < plan->n_filters; f++) {
    const bool gauss = f == params->orientations;
    const double theta = (params->orientation + 180.0 * f /
        params->orientations) * CV_PI / 180.0;
    const double wx = gauss ? 0.0 : omega * cos (theta);
    const double wy = gauss ? 0.0 : omega * sin (theta);

    plan->dc[f] = init_pass (&plan->rows[f], a, plan->b, r, wx) *
        init_pass (&plan->cols[f], a, plan->b, r, wy);
  }
  for (int f = 0; f < plan->n_filters; f++) {
    int m;

    /* a row pass of the other orientation, with no mirror yet */
    for (m = 0; m < f; m++)
      if (plan->row_mirror[m] < 0 && has_row_pass (plan, m)
          && fabs (plan->rows[m].omega + plan->rows[f].omega) < 1e-9
          && fabs (plan->cols[m].omega - plan->cols[f].omega) < 1e-9)
        break;
    plan->row_mirror[f] = -1;
    if (m < f)
      plan->row_mirror[m] = f;
    else
      plan->row_passes[plan->n_row_passes++] = f;
  }
  if (params->method == CVCORE_GABOR_FIR)
    for (int f = 0; f < plan->n_filters; f++) {
      /* the sampled filter's own response to a flat image */
      double g[2] = { 1.0, 1.0 };
      double norm = 0.0;

      for (int k = -plan->radius; k <= plan->radius; k++)
        norm += exp (-0.5 * k * k / (params->sigma * params->sigma));
      for (int d = 0; d < 2; d++) {
        const double w = d ? plan->cols[f].omega : plan->rows[f].omega;
        double complex sum = 0.0;

        for (int k = -plan->radius; k <= plan->radius; k++)
          sum += exp (-0.5 * k * k / (params->sigma * params->sigma)) / norm *
              cexp (I * w * k);
        g[d] = creal (sum);
      }
      plan->dc[f] = g[0] * g[1];
    }
}

/* @out = the cascade's one-step transition with zero input (section k
 * takes section k - 1's new state) to the power @n, for poles @p. */
static void
jump_matrix (const double p[3][2], int n, double out[3][3][2])
{
  double complex m[3][3] = { {1, 0, 0}, {0, 1, 0}, {0, 0, 1} };
  const double complex p0 = p[0][0] + I * p[0][1];
  const double complex p1 = p[1][0] + I * p[1][1];
  const double complex p2 = p[2][0] + I * p[2][1];
  const double complex a[3][3] = { {p0, 0, 0}, {p0, p1, 0}, {p0, p1, p2} };

  for (int k = 0; k < n; k++) {
    double complex t[3][3];

    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++)
        t[i][j] = a[i][0] * m[0][j] + a[i][1] * m[1][j] + a[i][2] * m[2][j];
    memcpy (m, t, sizeof (m));
  }
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      set_complex (out[i][j], m[i][j]);
}

void
cv_gabor_plan_segments (cv_gabor_plan * plan, int width, int height)
{
  static const int counts[2] = { CV_GABOR_SEGMENTS_FEW,
    CV_GABOR_SEGMENTS_MANY
  };

  for (int f = 0; f < plan->n_filters; f++)
    for (int dir = 0; dir < 2; dir++)
      for (int m = 0; m < 2; m++) {
        cv_gabor_pass *p = dir ? &plan->cols[f] : &plan->rows[f];
        const int n = cv_gabor_segment_length (dir ? height : width,
            counts[m], !dir);

        jump_matrix ((const double (*)[2]) p->pole[0], n, p->jump[m][0]);
        jump_matrix ((const double (*)[2]) p->pole[1], n, p->jump[m][1]);
      }
}

void
cvcore_gabor_impulse_1d (double sigma, double omega, int radius,
    double *re_im)
{
  const int n = 2 * radius + 1;
  double complex *line = calloc ((size_t) n, sizeof (double complex));
  double a[3], b;
  double complex r[3];
  cv_gabor_pass pass;

  young_van_vliet (sigma, a, &b, r);
  init_pass (&pass, a, b, r, omega);
  line[radius] = 1.0;
  {
    double complex w1 = 0, w2 = 0, w3 = 0;

    for (int i = 0; i < n; i++) {
      const double complex w = b * line[i] + (pass.c[0][0] + I *
          pass.c[0][1]) * w1 + (pass.c[1][0] + I * pass.c[1][1]) * w2 +
          (pass.c[2][0] + I * pass.c[2][1]) * w3;

      w3 = w2;
      w2 = w1;
      w1 = line[i] = w;
    }
    w1 = w2 = w3 = 0;
    for (int i = n - 1; i >= 0; i--) {
      const double complex o = b * line[i] + (pass.d[0][0] + I *
          pass.d[0][1]) * w1 + (pass.d[1][0] + I * pass.d[1][1]) * w2 +
          (pass.d[2][0] + I * pass.d[2][1]) * w3;

      w3 = w2;
      w2 = w1;
      w1 = line[i] = o;
    }
  }
  for (int i = 0; i < n; i++) {
    re_im[2 * i] = creal (line[i]);
    re_im[2 * i + 1] = cimag (line[i]);
  }
  free (line);
}

/* --- scratch ------------------------------------------------------------ */

static size_t
complex_size (const cvcore_device * device)
{
  return device->backend == CVCORE_BACKEND_CPU ? sizeof (double complex) :
      2 * sizeof (float);
}

cvcore_status
cvcore_gabor_scratch_new (cvcore_device * device, int width, int height,
    int max_orientations, cvcore_gabor_scratch ** gabor)
{
  cvcore_gabor_scratch *g;
  cvcore_status status;

  *gabor = NULL;
  if (width < 1 || height < 1 || max_orientations < 1
      || max_orientations > CVCORE_GABOR_MAX_ORIENTATIONS)
    return cvcore_fail (CVCORE_ERROR_INVALID_VALUE,
        "Gabor filtering of %dx%d with %d orientations", width, height,
        max_orientations);
  g = calloc (1, sizeof (*g));
  if (g == NULL)
    return cvcore_fail (CVCORE_ERROR_OUT_OF_MEMORY, "Gabor scratch");
  g->device = device;
  g->width = width;
  g->height = height;
  g->max_filters = max_orientations + 1;
  status = cvcore_plane_alloc (device, complex_size (device) * width,
      (size_t) height * g->max_filters, &g->planes, &g->plane_pitch);
  if (status == CVCORE_OK && device->backend != CVCORE_BACKEND_CPU) {
    cv_gabor_device_scratch *d = &g->dev;
    size_t aux_bytes;

    d->planes = g->planes;
    d->plane_pitch = g->plane_pitch;
    d->aux_pitch = cvcore_pitch_for_width (device,
        complex_size (device) * height);
    aux_bytes = d->aux_pitch * width > g->plane_pitch * height ?
        d->aux_pitch * width : g->plane_pitch * height;
    status = cvcore_device_alloc (device, aux_bytes * g->max_filters,
        &d->aux);
    if (status == CVCORE_OK)
      status = cvcore_device_alloc (device, sizeof (float) * 2 * 2 *
          CV_GABOR_MAX_FILTERS * (8 * (int) CVCORE_GABOR_MAX_SIGMA + 1),
          (void **) &d->taps);
  }
  if (status != CVCORE_OK) {
    cvcore_gabor_scratch_free (g);
    return status;
  }
  *gabor = g;
  return CVCORE_OK;
}

void
cvcore_gabor_scratch_free (cvcore_gabor_scratch * g)
{
  if (g == NULL)
    return;
  if (g->planes)
    cvcore_device_free (g->device, g->planes);
  if (g->dev.aux)
    cvcore_device_free (g->device, g->dev.aux);
  if (g->dev.taps)
    cvcore_device_free (g->device, g->dev.taps);
  free (g);
}

/* --- CPU reference ------------------------------------------------------ */

static double complex *
cpu_row (const cvcore_gabor_scratch * g, int f, int y)
{
  return (double complex *) ((unsigned char *) g->planes +
      ((size_t) f * g->height + y) * g->plane_pitch);
}

static double
source_luma (const cvcore_image * src, const double weight[4], int x, int y)
{
  const unsigned char *row = (const unsigned char *) src->data +
      (size_t) y * src->pitch;
  double v = 0.0;

  for (int c = 0; c < src->channels; c++) {
    const size_t i = (size_t) x * src->channels + c;

    v += weight[c] * (src->sample == CVCORE_SAMPLE_U16 ?
        ((const uint16_t *) row)[i] / 65535.0 : row[i] / 255.0);
  }
  return v;
}

static double complex
cx (const double v[2])
{
  return v[0] + I * v[1];
}

/* Recursive filtering of @n samples at @line[0], @stride apart, in place. */
static void
cpu_recursive_line (double complex *line, int n, size_t stride,
    const cv_gabor_pass * pass, double b)
{
  double complex w1, w2, w3;

  w1 = w2 = w3 = cx (pass->causal_init) * line[0];
  for (int i = 0; i < n; i++) {
    const double complex w = b * line[i * stride] + cx (pass->c[0]) * w1 +
        cx (pass->c[1]) * w2 + cx (pass->c[2]) * w3;

    w3 = w2;
    w2 = w1;
    w1 = line[i * stride] = w;
  }
  w1 = w2 = w3 = cx (pass->anticausal_init) * line[(size_t) (n - 1) * stride];
  for (int i = n - 1; i >= 0; i--) {
    const double complex o = b * line[i * stride] + cx (pass->d[0]) * w1 +
        cx (pass->d[1]) * w2 + cx (pass->d[2]) * w3;

    w3 = w2;
    w2 = w1;
    w1 = line[i * stride] = o;
  }
}

/* FIR filtering of a line (edges clamped), through @tmp. */
static void
cpu_fir_line (double complex *line, int n, size_t stride,
    const cv_gabor_plan * plan, double omega, const double *gauss,
    double complex *tmp)
{
  const int r = plan->radius;

  for (int i = 0; i < n; i++) {
    double complex acc = 0.0;

    for (int k = -r; k <= r; k++) {
      const int j = i - k < 0 ? 0 : i - k >= n ? n - 1 : i - k;

      acc += gauss[k + r] * cexp (I * omega * k) * line[j * stride];
    }
    tmp[i] = acc;
  }
  for (int i = 0; i < n; i++)
    line[i * stride] = tmp[i];
}

static double
to_scale (double v, double full)
{
  v = floor (v * full + 0.5);
  return v < 0.0 ? 0.0 : v > full ? full : v;
}

static void
cpu_output (const cvcore_gabor_scratch * g, const cvcore_image * dst,
    const cvcore_gabor_params * params, const cv_gabor_plan * plan)
{
  const double full = dst->sample == CVCORE_SAMPLE_U16 ? 65535.0 : 255.0;
  const int n = plan->orientations;

  for (int y = 0; y < g->height; y++)
    for (int x = 0; x < g->width; x++) {
      const double gauss = creal (cpu_row (g, n, y)[x]);
      double out[4] = { 0.0, 0.0, 0.0, 0.0 }, energy = 0.0, best = -1.0;
      double complex strongest = 0.0;
      int arg = 0;

      for (int o = 0; o < n; o++) {
        const double complex r = cpu_row (g, o, y)[x] - plan->dc[o] * gauss;
        const double m = cabs (r);

        if (o < 4)
          out[o] = to_scale (params->gain * m, full);
        energy += m * m;
        if (m > best) {
          best = m;
          strongest = r;
          arg = o;
        }
      }
      if (dst->channels == 1) {
        switch (params->output) {
          case CVCORE_GABOR_MAGNITUDE:
            out[0] = to_scale (params->gain * sqrt (energy), full);
            break;
          case CVCORE_GABOR_REAL:
            out[0] = to_scale (0.5 + params->gain * creal (strongest), full);
            break;
          case CVCORE_GABOR_IMAGINARY:
            out[0] = to_scale (0.5 + params->gain * cimag (strongest), full);
            break;
          case CVCORE_GABOR_PHASE:
            out[0] = to_scale ((carg (strongest) + CV_PI) / (2.0 * CV_PI),
                full);
            break;
          case CVCORE_GABOR_MAX_ORIENTATION:
            out[0] = floor ((double) arg * full / n + 0.5);
            break;
        }
      }
      for (int c = 0; c < dst->channels; c++) {
        unsigned char *row = (unsigned char *) dst->data +
            (size_t) y * dst->pitch;

        if (dst->sample == CVCORE_SAMPLE_U16)
          ((uint16_t *) row)[(size_t) x * dst->channels + c] =
              (uint16_t) out[c];
        else
          row[(size_t) x * dst->channels + c] = (unsigned char) out[c];
      }
    }
}

static cvcore_status
cpu_gabor (cvcore_gabor_scratch * g, const cvcore_image * src,
    const cvcore_image * dst, const cvcore_gabor_params * params,
    const cv_gabor_plan * plan)
{
  const int w = g->width, h = g->height;
  const size_t stride = g->plane_pitch / sizeof (double complex);
  double *gauss = NULL;
  double complex *tmp = malloc (sizeof (double complex) * (w > h ? w : h));

  if (plan->method == CVCORE_GABOR_FIR) {
    double norm = 0.0;

    gauss = malloc (sizeof (double) * (2 * plan->radius + 1));
    for (int k = -plan->radius; k <= plan->radius; k++)
      norm += gauss[k + plan->radius] = exp (-0.5 * k * k /
          (plan->sigma * plan->sigma));
    for (int k = 0; k <= 2 * plan->radius; k++)
      gauss[k] /= norm;
  }
  if (tmp == NULL || (plan->method == CVCORE_GABOR_FIR && gauss == NULL)) {
    free (tmp);
    free (gauss);
    return cvcore_fail (CVCORE_ERROR_OUT_OF_MEMORY, "Gabor lines");
  }
  for (int f = 0; f < plan->n_filters; f++) {
    for (int y = 0; y < h; y++) {
      double complex *row = cpu_row (g, f, y);

      for (int x = 0; x < w; x++)
        row[x] = source_luma (src, params->weight, x, y);
      if (plan->method == CVCORE_GABOR_FIR)
        cpu_fir_line (row, w, 1, plan, plan->rows[f].omega, gauss, tmp);
      else
        cpu_recursive_line (row, w, 1, &plan->rows[f], plan->b);
    }
    for (int x = 0; x < w; x++) {
      double complex *col = cpu_row (g, f, 0) + x;

      if (plan->method == CVCORE_GABOR_FIR)
        cpu_fir_line (col, h, stride, plan, plan->cols[f].omega, gauss, tmp);
      else
        cpu_recursive_line (col, h, stride, &plan->cols[f], plan->b);
    }
  }
  cpu_output (g, dst, params, plan);
  free (tmp);
  free (gauss);
  return CVCORE_OK;
}

cvcore_status
cvcore_gabor_response (cvcore_gabor_scratch * g, cvcore_stream * stream, int o,
    float *re_im)
{
  const int n = g->plan.orientations;
  cvcore_status status;

  if (o < 0 || o >= n)
    return cvcore_fail (CVCORE_ERROR_INVALID_VALUE, "orientation %d of %d",
        o, n);
  if (g->device->backend == CVCORE_BACKEND_CPU) {
    for (int y = 0; y < g->height; y++)
      for (int x = 0; x < g->width; x++) {
        const double complex r = cpu_row (g, o, y)[x] - g->plan.dc[o] *
            creal (cpu_row (g, n, y)[x]);

        re_im[2 * ((size_t) y * g->width + x)] = (float) creal (r);
        re_im[2 * ((size_t) y * g->width + x) + 1] = (float) cimag (r);
      }
    return CVCORE_OK;
  }
  {
    /* filter o and the Gaussian (real samples), then the same
     * subtraction */
    const size_t row_bytes = (size_t) 2 * sizeof (float) * g->width;
    float *gauss = malloc (row_bytes / 2 * g->height);

    if (gauss == NULL)
      return cvcore_fail (CVCORE_ERROR_OUT_OF_MEMORY, "Gabor response");
    status = cvcore_copy_2d_async (stream, re_im, row_bytes,
        (unsigned char *) g->planes + (size_t) o * g->height *
        g->plane_pitch, g->plane_pitch, row_bytes, g->height,
        CVCORE_COPY_DEVICE_TO_HOST);
    if (status == CVCORE_OK)
      status = cvcore_copy_2d_async (stream, gauss, row_bytes / 2,
          (unsigned char *) g->planes + (size_t) n * g->height *
          g->plane_pitch, g->plane_pitch, row_bytes / 2, g->height,
          CVCORE_COPY_DEVICE_TO_HOST);
    if (status == CVCORE_OK)
      status = cvcore_stream_synchronize (stream);
    for (size_t i = 0; status == CVCORE_OK && i < (size_t) g->width *
        g->height; i++)
      re_im[2 * i] -= (float) g->plan.dc[o] * gauss[i];
    free (gauss);
    return status;
  }
}

/* --- dispatch ----------------------------------------------------------- */

/* Whether @a and @b describe the same filters (the output, gain and
 * luminance weights do not enter the plan). */
static bool
same_filters (const cvcore_gabor_params * a, const cvcore_gabor_params * b)
{
  return a->sigma == b->sigma && a->wavelength == b->wavelength
      && a->orientation == b->orientation
      && a->orientations == b->orientations && a->method == b->method;
}

cvcore_status
cvcore_gabor (cvcore_stream * stream, cvcore_gabor_scratch * g,
    const cvcore_image * src, const cvcore_image * dst,
    const cvcore_gabor_params * params)
{
  const cvcore_gabor_params *p = params;

  if (src->width != g->width || src->height != g->height
      || dst->width != g->width || dst->height != g->height
      || src->channels < 1 || src->channels > 4
      || (dst->channels != 1 && dst->channels != 4)
      || (dst->channels == 4 && dst->sample != CVCORE_SAMPLE_U8))
    return cvcore_fail (CVCORE_ERROR_INVALID_VALUE,
        "Gabor filtering of %dx%dx%d into %dx%dx%d with %dx%d scratch",
        src->width, src->height, src->channels, dst->width, dst->height,
        dst->channels, g->width, g->height);
  if (!(p->sigma >= CVCORE_GABOR_MIN_SIGMA
          && p->sigma <= CVCORE_GABOR_MAX_SIGMA) || !(p->wavelength >= 2.0)
      || !isfinite (p->wavelength) || !isfinite (p->orientation)
      || p->orientations < 1 || p->orientations + 1 > g->max_filters
      || !isfinite (p->gain) || (p->method != CVCORE_GABOR_RECURSIVE
          && p->method != CVCORE_GABOR_FIR)
      || p->output < CVCORE_GABOR_MAGNITUDE
      || p->output > CVCORE_GABOR_MAX_ORIENTATION)
    return cvcore_fail (CVCORE_ERROR_INVALID_VALUE,
        "Gabor parameters out of range (sigma %g, wavelength %g, %d "
        "orientations of at most %d)", p->sigma, p->wavelength,
        p->orientations, g->max_filters - 1);
  if (cvcore_stream_device (stream) != g->device)
    return cvcore_fail (CVCORE_ERROR_INVALID_VALUE,
        "Gabor scratch and stream of different devices");

  /* The coefficients (and on CUDA the segment jumps) cost a bisection and
   * matrix powers per filter: made again only when the filters change. */
  if (!g->plan_valid || !same_filters (&g->planned, params)) {
    cv_gabor_plan_init (&g->plan, params);
    if (g->device->backend != CVCORE_BACKEND_CPU)
      cv_gabor_plan_segments (&g->plan, g->width, g->height);
    g->planned = *params;
    g->plan_valid = true;
  }
  switch (g->device->backend) {
    case CVCORE_BACKEND_CPU:
      return cpu_gabor (g, src, dst, params, &g->plan);
#ifdef CVCORE_HAVE_CUDA
    case CVCORE_BACKEND_CUDA:
      return cvcore_cuda_gabor (stream, &g->dev, src, dst, params, &g->plan);
#endif
    default:
      return cvcore_fail (CVCORE_ERROR_NOT_BUILT, "no such backend");
  }
}
