/* The tone mapping core: key, global curve, local scale selection,
 * adaptation and degenerate frames against values worked out here from
 * the operator's equations (on the backend under test), and CUDA against
 * the double-precision CPU reference on HDR night scenes (suite gpu). */
#include <math.h>
#include <string.h>

#include "cvtest.h"
#include "cvimage.h"
#include "cvtonemap.h"
#include "night-scene.h"

static cvcore_device *device;
static cvcore_stream *stream;

static void
setup (void)
{
  cvtest_open_backend (&device, &stream);
}

static void
teardown (void)
{
  cvtest_close_backend (device, stream);
}

static gdouble
srgb_byte (gdouble v)
{
  v = CLAMP (v, 0.0, 1.0);
  v = v <= 0.0031308 ? 12.92 * v : 1.055 * pow (v, 1.0 / 2.4) - 0.055;
  return floor (v * 255.0 + 0.5);
}

static void
set_u16 (TestImage * t, gint x, gint y, gint c, guint16 v)
{
  ((guint16 *) (t->host + (gsize) y * t->image.pitch))[(gsize) x *
      t->image.channels + c] = v;
}

static guint8
out_byte (const TestImage * out, gint x, gint y, gint c)
{
  return out->host[(gsize) y * out->image.pitch + (gsize) x * 4 + c];
}

/* Tone maps @src with @tm (made for it when NULL) into a poisoned output,
 * downloaded. */
static TestImage
run_with (cvcore_tonemapper * tm, const TestImage * src,
    const cvcore_tm_params * params, gdouble dt)
{
  TestImage out = cvtest_image_new (device, stream, src->image.width,
      src->image.height, 4, CVCORE_SAMPLE_U8, 0xcd, 0, 0);

  fail_unless_equals_int (cvcore_tonemap (stream, tm, &src->image,
          &out.image, params, dt), CVCORE_OK);
  cvtest_image_download (&out, stream);
  return out;
}

static TestImage
run (const TestImage * src, const cvcore_tm_params * params,
    cvcore_tm_key * key)
{
  cvcore_tonemapper *tm;
  TestImage out;

  fail_unless_equals_int (cvcore_tonemapper_new (device, src->image.width,
          src->image.height, &tm), CVCORE_OK);
  out = run_with (tm, src, params, 0.0);
  if (key)
    fail_unless_equals_int (cvcore_tonemapper_key (tm, stream, key),
        CVCORE_OK);
  cvcore_tonemapper_free (tm);
  return out;
}

static gboolean
close_rel (gdouble a, gdouble b, gdouble tol)
{
  return fabs (a - b) <= tol * fmax (fabs (a), fabs (b));
}

/* Log-average, extremes, exposure and scale of a 2x2 luminance frame. */
GST_START_TEST (test_key)
{
  static const guint16 values[4] = { 0, 655, 6554, 65535 };
  TestImage src = cvtest_image_new (device, stream, 2, 2, 1,
      CVCORE_SAMPLE_U16, 0, 0, 0);
  cvcore_tm_params params;
  cvcore_tm_key key;
  gdouble sum = 0.0, lo = G_MAXDOUBLE, hi = -G_MAXDOUBLE, la;
  TestImage out;

  for (gint i = 0; i < 4; i++) {
    const gdouble lg = log (1e-4 + 2.0 * values[i] / 65535.0);

    set_u16 (&src, i % 2, i / 2, 0, values[i]);
    sum += lg;
    lo = MIN (lo, lg);
    hi = MAX (hi, lg);
  }
  cvtest_image_upload (&src, stream);
  cvcore_tm_params_init (&params);
  params.op = CVCORE_TM_GLOBAL;
  params.input_scale = 2.0;
  out = run (&src, &params, &key);
  la = sum / 4.0;
  fail_unless (close_rel (key.log_average, la, 1e-6));
  fail_unless (close_rel (key.log_min, lo, 1e-6));
  fail_unless (close_rel (key.log_max, hi, 1e-6));
  fail_unless_equals_float (key.exposure, 0.18);
  fail_unless (close_rel (key.scale, 0.18 / exp (la), 1e-6));
  cvtest_image_free (&out, device);

  /* Reinhard's estimate: 0.18 * 4^((2 la - lo - hi) / (hi - lo)). */
  params.auto_key = TRUE;
  out = run (&src, &params, &key);
  fail_unless (close_rel (key.exposure,
          0.18 * pow (4.0, (2.0 * la - lo - hi) / (hi - lo)), 1e-5));
  cvtest_image_free (&out, device);
  cvtest_image_free (&src, device);
}

GST_END_TEST;

/* Global curve against its closed form on random luminance and colour,
 * with and without a white point; the curve rises with luminance. */
GST_START_TEST (test_global_closed_form)
{
  static const gdouble whites[] = { INFINITY, 1.5 };
  TestImage src = cvtest_image_new (device, stream, 61, 23, 4,
      CVCORE_SAMPLE_U16, -1, 8, 7);
  cvcore_tm_params params;

  cvcore_tm_params_init (&params);
  params.op = CVCORE_TM_GLOBAL;
  params.saturation = 0.7;
  for (guint w = 0; w < G_N_ELEMENTS (whites); w++) {
    cvcore_tm_key key;
    TestImage out;

    params.white_point = whites[w];
    out = run (&src, &params, &key);
    for (gint y = 0; y < 23; y++)
      for (gint x = 0; x < 61; x++) {
        const gdouble r = cvtest_host_sample (&src, x, y, 0) / 65535.0;
        const gdouble g = cvtest_host_sample (&src, x, y, 1) / 65535.0;
        const gdouble b = cvtest_host_sample (&src, x, y, 2) / 65535.0;
        const gdouble lw = 0.2126 * r + 0.7152 * g + 0.0722 * b;
        const gdouble l = key.scale * lw;
        const gdouble ld = l * (1.0 + l / (whites[w] * whites[w])) / (1.0 + l);
        const gdouble rgb[3] = { r, g, b };

        for (gint c = 0; c < 3; c++)
          fail_unless (fabs (out_byte (&out, x, y, c) -
                  srgb_byte (pow (rgb[c] / lw, 0.7) * ld)) <= 1.0,
              "(%d, %d, %d): %d", x, y, c, out_byte (&out, x, y, c));
        fail_unless_equals_int (out_byte (&out, x, y, 3),
            (gint) floor (cvtest_host_sample (&src, x, y, 3) / 65535.0 *
                255.0 + 0.5));
      }
    cvtest_image_free (&out, device);
  }
  cvtest_image_free (&src, device);
}

GST_END_TEST;

GST_START_TEST (test_monotonic)
{
  TestImage src = cvtest_image_new (device, stream, 1000, 3, 1,
      CVCORE_SAMPLE_U16, 0, 0, 0);
  cvcore_tm_params params;
  TestImage out;

  for (gint y = 0; y < 3; y++)
    for (gint x = 0; x < 1000; x++)
      set_u16 (&src, x, y, 0, (guint16) (65535.0 * pow (x / 999.0, 3.0)));
  cvtest_image_upload (&src, stream);
  cvcore_tm_params_init (&params);
  params.op = CVCORE_TM_GLOBAL;
  out = run (&src, &params, NULL);
  for (gint x = 1; x < 1000; x++)
    fail_unless (out_byte (&out, x, 1, 0) >= out_byte (&out, x - 1, 1, 0));
  fail_unless_equals_int (out_byte (&out, 0, 1, 0), 0);
  fail_unless (out_byte (&out, 999, 1, 0) > 200);
  cvtest_image_free (&out, device);
  cvtest_image_free (&src, device);
}

GST_END_TEST;

/* Black frames, single pixels, zero and saturated pixels: finite, and what
 * the equations give. */
GST_START_TEST (test_degenerate_frames)
{
  cvcore_tm_params params;

  cvcore_tm_params_init (&params);
  for (gint op = 0; op < 2; op++) {
    TestImage black = cvtest_image_new (device, stream, 70, 9, 4,
        CVCORE_SAMPLE_U16, 0, 0, 0);
    TestImage one = cvtest_image_new (device, stream, 1, 1, 4,
        CVCORE_SAMPLE_U16, 0, 0, 0);
    TestImage out;
    cvcore_tm_key key;

    params.op = op;
    out = run (&black, &params, &key);
    fail_unless (isfinite (key.scale));
    for (gint y = 0; y < 9; y++)
      for (gint x = 0; x < 70; x++)
        for (gint c = 0; c < 3; c++)
          fail_unless_equals_int (out_byte (&out, x, y, c), 0);
    cvtest_image_free (&out, device);

    /* A lone grey pixel is its own key: L = 0.18 Lw / (1e-4 + Lw). */
    for (gint c = 0; c < 4; c++)
      set_u16 (&one, 0, 0, c, 30000);
    cvtest_image_upload (&one, stream);
    out = run (&one, &params, NULL);
    {
      const gdouble lw = 30000 / 65535.0, l = 0.18 * lw / (1e-4 + lw);

      for (gint c = 0; c < 3; c++)
        fail_unless (fabs (out_byte (&out, 0, 0, c) -
                srgb_byte (l / (1.0 + l))) <= 1.0);
    }
    cvtest_image_free (&out, device);
    cvtest_image_free (&one, device);

    /* Zero and saturated pixels side by side. */
    for (gint y = 0; y < 9; y++)
      for (gint x = 0; x < 70; x++)
        for (gint c = 0; c < 4; c++)
          set_u16 (&black, x, y, c, (x + y) % 2 ? 65535 : 0);
    cvtest_image_upload (&black, stream);
    out = run (&black, &params, &key);
    for (gint y = 0; y < 9; y++)
      for (gint x = 0; x < 70; x++) {
        if ((x + y) % 2 == 0) {
          fail_unless_equals_int (out_byte (&out, x, y, 0), 0);
        } else {
          fail_unless (out_byte (&out, x, y, 0) > 0);
        }
      }
    cvtest_image_free (&out, device);
    cvtest_image_free (&black, device);
  }
}

GST_END_TEST;

/* A vertical step from bright (left) to dark (right): every pixel of the
 * middle row against the walk worked out from box counts, and the pixels
 * near the edge keep boxes that do not cross it. */
GST_START_TEST (test_step_edge)
{
  const gint w = 160, h = 101, edge = 80, ym = 50;
  const guint16 bright = 60000, dark = 300;
  TestImage src = cvtest_image_new (device, stream, w, h, 1,
      CVCORE_SAMPLE_U16, 0, 0, 0);
  cvcore_tm_params params;
  cvcore_tm_key key;
  TestImage out;

  for (gint y = 0; y < h; y++)
    for (gint x = 0; x < w; x++)
      set_u16 (&src, x, y, 0, x < edge ? bright : dark);
  cvtest_image_upload (&src, stream);
  cvcore_tm_params_init (&params);
  out = run (&src, &params, &key);

  for (gint x = 20; x < w - 20; x++) {
    const gdouble lb = key.scale * bright / 65535.0;
    const gdouble ld = key.scale * dark / 65535.0;
    const gdouble l = x < edge ? lb : ld;
    const gdouble ts = 256.0 * key.exposure;
    gdouble v[8];
    gint best = 0;

    for (gint i = 0; i < 8; i++) {
      const gint e = cvcore_tm_box_edge (i), r = e / 2;
      /* bright columns in [x - r, x + r] */
      const gint nb = CLAMP (edge - (x - r), 0, e);

      v[i] = (nb * lb + (e - nb) * ld) / e;
    }
    for (gint i = 0; i < 7; i++) {
      const gdouble act = (v[i] - v[i + 1]) / (ts / ((gdouble) (cvcore_tm_box_edge (i) * cvcore_tm_box_edge (i))) + v[i]);

      if (!(fabs (act) < 0.025))
        break;
      best = i;
    }
    fail_unless (fabs (out_byte (&out, x, ym, 0) -
            srgb_byte (l / (1.0 + v[best]))) <= 1.0, "x %d: %d, scale %d",
        x, out_byte (&out, x, ym, 0), best);
    /* Three pixels into the dark side, the 7-pixel box is the largest
     * that stays dark; the dark pixel is compressed against itself. */
    if (x == edge + 3)
      fail_unless (fabs (v[best] - ld) < 1e-12 && best >= 2);
  }
  cvtest_image_free (&out, device);
  cvtest_image_free (&src, device);
}

GST_END_TEST;

/* 100 frames whose brightness jumps at frame 30 and falls at 70: the key
 * follows with time constant 0.5 s at 30 fps; a reset takes the frame's
 * own key. */
GST_START_TEST (test_adaptation)
{
  TestImage src = cvtest_image_new (device, stream, 37, 29, 1,
      CVCORE_SAMPLE_U16, 0, 0, 0);
  const gdouble dt = 1.0 / 30.0, tau = 0.5;
  cvcore_tm_params params;
  cvcore_tonemapper *tm;
  gdouble expect = 0.0;

  cvcore_tm_params_init (&params);
  params.adaptation_time = tau;
  fail_unless_equals_int (cvcore_tonemapper_new (device, 37, 29, &tm),
      CVCORE_OK);
  for (gint n = 0; n < 100; n++) {
    const guint16 level = n < 30 ? 100 : n < 70 ? 50000 : 1000;
    const gdouble now = log (1e-4 + level / 65535.0);
    cvcore_tm_key key;
    TestImage out;

    for (gint y = 0; y < 29; y++)
      for (gint x = 0; x < 37; x++)
        set_u16 (&src, x, y, 0, level);
    cvtest_image_upload (&src, stream);
    if (n == 90)
      cvcore_tonemapper_reset (tm);
    out = run_with (tm, &src, &params, dt);
    fail_unless_equals_int (cvcore_tonemapper_key (tm, stream, &key),
        CVCORE_OK);
    expect = n == 0 || n == 90 ? now :
        expect + (now - expect) * (1.0 - exp (-dt / tau));
    fail_unless (fabs (key.log_average - expect) < 1e-5, "frame %d: %g, %g",
        n, key.log_average, expect);
    cvtest_image_free (&out, device);
  }
  cvcore_tonemapper_free (tm);
  cvtest_image_free (&src, device);
}

GST_END_TEST;

GST_START_TEST (test_bad_arguments)
{
  TestImage src = cvtest_image_new (device, stream, 16, 16, 4,
      CVCORE_SAMPLE_U16, 0, 0, 0);
  TestImage small = cvtest_image_new (device, stream, 15, 16, 4,
      CVCORE_SAMPLE_U8, 0, 0, 0);
  TestImage two = cvtest_image_new (device, stream, 16, 16, 2,
      CVCORE_SAMPLE_U8, 0, 0, 0);
  cvcore_tm_params params;
  cvcore_tonemapper *tm;

  fail_unless_equals_int (cvcore_tonemapper_new (device, 0, 16, &tm),
      CVCORE_ERROR_INVALID_VALUE);
  fail_unless (tm == NULL);
  fail_unless_equals_int (cvcore_tonemapper_new (device, 16, 16, &tm),
      CVCORE_OK);
  cvcore_tm_params_init (&params);
  fail_unless_equals_int (cvcore_tonemap (stream, tm, &src.image,
          &small.image, &params, 0.0), CVCORE_ERROR_INVALID_VALUE);
  fail_unless_equals_int (cvcore_tonemap (stream, tm, &two.image,
          &src.image, &params, 0.0), CVCORE_ERROR_INVALID_VALUE);
  params.scales = 9;
  fail_unless_equals_int (cvcore_tonemap (stream, tm, &src.image,
          &src.image, &params, 0.0), CVCORE_ERROR_INVALID_VALUE);
  params.scales = 8;
  params.key = NAN;
  fail_unless_equals_int (cvcore_tonemap (stream, tm, &src.image,
          &src.image, &params, 0.0), CVCORE_ERROR_INVALID_VALUE);
  cvcore_tonemapper_free (tm);
  cvtest_image_free (&src, device);
  cvtest_image_free (&small, device);
  cvtest_image_free (&two, device);
}

GST_END_TEST;

/* CUDA against the CPU reference: random and night-scene frames, odd
 * sizes, every input layout and both operators; at least 999 in 1000
 * pixels within one unit, none off by more than two. */
GST_START_TEST (test_cuda_equals_cpu)
{
  static const gint sizes[][2] = { {1, 1}, {17, 5}, {333, 197},
  {1921, 1081}, {64, 64}
  };
  cvcore_device *cpu;
  cvcore_stream *cpu_stream;

  fail_unless_equals_int (cvcore_device_open (CVCORE_BACKEND_CPU, 0, &cpu),
      CVCORE_OK);
  fail_unless_equals_int (cvcore_stream_new (cpu, &cpu_stream), CVCORE_OK);
  for (guint n = 0; n < 20; n++) {
    const gint *size = sizes[n % G_N_ELEMENTS (sizes)];
    const gint channels = n % 3 == 2 ? 1 : 4;
    const cvcore_sample sample = n % 4 == 3 ? CVCORE_SAMPLE_U8 :
        CVCORE_SAMPLE_U16;
    cvcore_tm_params params;
    TestImage src, cpu_src, out, cpu_out;
    gint64 off_by_two = 0, pixels = (gint64) size[0] * size[1];
    gint worst = 0;

    cvcore_tm_params_init (&params);
    params.op = n % 5 == 4 ? CVCORE_TM_GLOBAL : CVCORE_TM_LOCAL;
    params.auto_key = n % 2;
    params.saturation = n % 3 ? 1.0 : 0.7;
    params.scales = 3 + n % 6;
    params.dst_bgr = n % 7 == 1;
    params.primaries = n % 2 ? CVCORE_TM_BT2020 : CVCORE_TM_BT709;
    src = cvtest_image_new (device, stream, size[0], size[1], channels,
        sample, -1, n % 2 * 40, n + 11);
    if (sample == CVCORE_SAMPLE_U16 && n % 2 == 0) {
      night_scene_paint ((guint16 *) src.host, src.image.pitch, size[0],
          size[1], channels, n, 1.0);
      cvtest_image_upload (&src, stream);
    }
    cpu_src = cvtest_image_on_cpu (cpu, cpu_stream, &src);
    out = run (&src, &params, NULL);
    {
      cvcore_device *saved_device = device;
      cvcore_stream *saved_stream = stream;

      device = cpu;
      stream = cpu_stream;
      cpu_out = run (&cpu_src, &params, NULL);
      device = saved_device;
      stream = saved_stream;
    }
    for (gint y = 0; y < size[1]; y++)
      for (gint x = 0; x < size[0]; x++) {
        gint d = 0;

        for (gint c = 0; c < 4; c++)
          d = MAX (d, abs (out_byte (&out, x, y, c) -
                  out_byte (&cpu_out, x, y, c)));
        off_by_two += d > 1;
        worst = MAX (worst, d);
      }
    GST_INFO ("case %u (%dx%dx%d): %" G_GINT64_FORMAT " pixels off by 2, "
        "worst %d", n, size[0], size[1], channels, off_by_two, worst);
    fail_unless (worst <= 2, "case %u: a pixel off by %d", n, worst);
    fail_unless (off_by_two * 1000 <= pixels, "case %u: %" G_GINT64_FORMAT
        " of %" G_GINT64_FORMAT " pixels off by 2", n, off_by_two, pixels);
    cvtest_image_free (&out, device);
    cvtest_image_free (&src, device);
    cvtest_image_free (&cpu_out, cpu);
    cvtest_image_free (&cpu_src, cpu);
  }
  cvcore_stream_free (cpu_stream);
  cvcore_device_close (cpu);
}

GST_END_TEST;

static Suite *
tonemap_suite (void)
{
  Suite *s = suite_create ("tonemap");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 300);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_key);
  tcase_add_test (tc, test_global_closed_form);
  tcase_add_test (tc, test_monotonic);
  tcase_add_test (tc, test_degenerate_frames);
  tcase_add_test (tc, test_step_edge);
  tcase_add_test (tc, test_adaptation);
  tcase_add_test (tc, test_bad_arguments);
  if (cvtest_backend () == CVCORE_BACKEND_CUDA)
    tcase_add_test (tc, test_cuda_equals_cpu);
  return s;
}

int
main (int argc, char **argv)
{
  return cvtest_main (argc, argv, tonemap_suite);
}
