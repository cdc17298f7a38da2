/* gst-cuda-vision
 * Copyright (C) 2026 The gst-cuda-vision authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * This library is free software; you can redistribute it and/or modify it
 * under the terms of the GNU Lesser General Public License as published by
 * the Free Software Foundation; either version 2.1 of the License, or (at
 * your option) any later version. It is distributed in the hope that it
 * will be useful, but WITHOUT ANY WARRANTY; see the GNU Lesser General
 * Public License (COPYING) for more details.
 */

/* The elements next to GStreamer's CUDA library (gst-plugins-bad's
 * libgstcuda-1.0, whose memory:CUDAMemory nvcodec's elements carry): caps
 * in both device memories in every direction, linking with another
 * plugin's CUDAMemory elements, the "gst.cuda.context" handling, and the
 * CPU backend's refusal. Caps are checked on the CUDA backend too: they
 * need no device. With a CUDA device, two pipelines share a context that
 * the application made. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "cvtest.h"
#include "cvtest-linked.h"
#include "gstcudavisioninterop.h"

#ifdef HAVE_GST_CUDA
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>
#endif

#define CUDA_MEMORY "memory:CUDAMemory"
#define OURS "memory:CUDAVisionMemory"

/* Runs the rest of a test with GST_CUDAVISION_BACKEND=@backend. */
static gchar *
use_backend (const gchar * backend)
{
  gchar *saved = g_strdup (g_getenv ("GST_CUDAVISION_BACKEND"));

  g_setenv ("GST_CUDAVISION_BACKEND", backend, TRUE);
  return saved;
}

static gboolean
has_feature (GstCaps * caps, guint i, const gchar * feature)
{
  return gst_caps_features_contains (gst_caps_get_features (caps, i), feature);
}

/* The features of @caps' structures, in order, as "a b c". */
static gchar *
features_of (GstCaps * caps)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < gst_caps_get_size (caps); i++) {
    gchar *f = gst_caps_features_to_string (gst_caps_get_features (caps, i));

    g_string_append_printf (s, "%s%s", i ? " " : "", f);
    g_free (f);
  }
  return g_string_free (s, FALSE);
}

/* What @element's transform_caps gives for @caps in @direction, the
 * features in order. */
static gchar *
transformed_features (const gchar * element, GstPadDirection direction,
    const gchar * caps_str)
{
  GstElement *e = gst_element_factory_make (element, NULL);
  GstCaps *caps = gst_caps_from_string (caps_str);
  GstCaps *out = GST_BASE_TRANSFORM_GET_CLASS (e)->transform_caps
      (GST_BASE_TRANSFORM (e), direction, caps, NULL);
  gchar *ret = features_of (out);

  gst_caps_unref (out);
  gst_caps_unref (caps);
  gst_object_unref (e);
  return ret;
}

static void
assert_transform (const gchar * element, GstPadDirection direction,
    const gchar * caps, const gchar * expected)
{
  gchar *got = transformed_features (element, direction, caps);

  fail_unless (g_strcmp0 (got, expected) == 0, "%s %s %s: got '%s', want '%s'",
      element, direction == GST_PAD_SINK ? "sink->src" : "src->sink", caps,
      got, expected);
  g_free (got);
}

#define NV12 ",format=NV12,width=64,height=48,framerate=30/1"

GST_START_TEST (test_templates)
{
  const gchar *elements[] = { "cudavisionupload", "cudavisiondownload",
    "cudafoveate", "cudaconvolve", "cudatonemap", "cudagabor", "cudaclt",
    "cudaphasecorr"
  };
  GstCaps *gray8 = gst_caps_from_string ("video/x-raw(" CUDA_MEMORY
      "),format=GRAY8");

  for (guint e = 0; e < G_N_ELEMENTS (elements); e++) {
    GstElement *element = gst_element_factory_make (elements[e], NULL);

    fail_unless (element != NULL);
    for (GList * l = GST_ELEMENT_GET_CLASS (element)->padtemplates; l;
        l = l->next) {
      GstCaps *caps = gst_pad_template_get_caps (l->data);
      gboolean ours = FALSE, cuda = FALSE;

      for (guint i = 0; i < gst_caps_get_size (caps); i++) {
        ours |= has_feature (caps, i, OURS);
        if (has_feature (caps, i, CUDA_MEMORY)) {
          GstCaps *one = gst_caps_copy_nth (caps, i);

          cuda = TRUE;
          /* raw video of the formats GStreamer's CUDA allocator lays out */
          fail_unless (gst_structure_has_name (gst_caps_get_structure (caps,
                      i), "video/x-raw"));
          fail_if (gst_caps_can_intersect (one, gray8));
          gst_caps_unref (one);
        }
      }
      fail_unless (ours, "%s has a template without our memory", elements[e]);
      fail_unless (cuda == gst_cuda_vision_interop_built (),
          "%s: CUDAMemory in its template %d, built with the library %d",
          elements[e], cuda, gst_cuda_vision_interop_built ());
      gst_caps_unref (caps);
    }
    gst_object_unref (element);
  }
  gst_caps_unref (gray8);
}

GST_END_TEST;

GST_START_TEST (test_caps_both_memories_every_direction)
{
  gchar *saved;

  if (!gst_cuda_vision_interop_built ())
    return;
  saved = use_backend ("cuda");
  /* a filter: the input's memory first, then the other */
  assert_transform ("cudafoveate", GST_PAD_SINK,
      "video/x-raw(" CUDA_MEMORY ")" NV12, CUDA_MEMORY " " OURS);
  assert_transform ("cudafoveate", GST_PAD_SINK,
      "video/x-raw(" OURS ")" NV12, OURS " " CUDA_MEMORY);
  assert_transform ("cudafoveate", GST_PAD_SRC,
      "video/x-raw(" CUDA_MEMORY ")" NV12, CUDA_MEMORY " " OURS);
  /* a format converter */
  assert_transform ("cudatonemap", GST_PAD_SINK,
      "video/x-raw(" CUDA_MEMORY "),format=P010_10LE,width=64,height=48",
      CUDA_MEMORY " " OURS);
  /* upload: host memory into either, device memory stays first */
  assert_transform ("cudavisionupload", GST_PAD_SINK, "video/x-raw" NV12,
      OURS " " CUDA_MEMORY);
  assert_transform ("cudavisionupload", GST_PAD_SINK,
      "video/x-raw(" CUDA_MEMORY ")" NV12, CUDA_MEMORY " " OURS);
  assert_transform ("cudavisionupload", GST_PAD_SRC,
      "video/x-raw(" CUDA_MEMORY ")" NV12,
      "memory:SystemMemory " CUDA_MEMORY " " OURS);
  /* download: host memory first */
  assert_transform ("cudavisiondownload", GST_PAD_SINK,
      "video/x-raw(" CUDA_MEMORY ")" NV12,
      "memory:SystemMemory " CUDA_MEMORY " " OURS);
  assert_transform ("cudavisiondownload", GST_PAD_SRC, "video/x-raw" NV12,
      OURS " " CUDA_MEMORY);

  /* the CPU backend never offers it */
  g_setenv ("GST_CUDAVISION_BACKEND", "cpu", TRUE);
  assert_transform ("cudafoveate", GST_PAD_SINK,
      "video/x-raw(" OURS ")" NV12, OURS);
  assert_transform ("cudavisionupload", GST_PAD_SINK, "video/x-raw" NV12, OURS);
  assert_transform ("cudavisiondownload", GST_PAD_SINK,
      "video/x-raw(" CUDA_MEMORY ")" NV12, "memory:SystemMemory " OURS);
  cvtest_restore_env ("GST_CUDAVISION_BACKEND", saved);
}

GST_END_TEST;

/* Stands for an element of another plugin with CUDAMemory pads, as
 * nvcodec's cudaupload, cudadownload and decoders are. */
typedef GstElement OtherCuda;
typedef GstElementClass OtherCudaClass;
static GType other_cuda_get_type (void);
G_DEFINE_TYPE (OtherCuda, other_cuda, GST_TYPE_ELEMENT);

static GstStaticPadTemplate other_templates[] = {
  GST_STATIC_PAD_TEMPLATE ("src", GST_PAD_SRC, GST_PAD_ALWAYS,
      GST_STATIC_CAPS ("video/x-raw(" CUDA_MEMORY "), format=NV12")),
  GST_STATIC_PAD_TEMPLATE ("sink", GST_PAD_SINK, GST_PAD_ALWAYS,
      GST_STATIC_CAPS ("video/x-raw(" CUDA_MEMORY "), format=NV12")),
};

static void
other_cuda_class_init (OtherCudaClass * klass)
{
  gst_element_class_add_static_pad_template (klass, &other_templates[0]);
  gst_element_class_add_static_pad_template (klass, &other_templates[1]);
  gst_element_class_set_static_metadata (klass, "Other CUDA", "Filter",
      "Another plugin's CUDAMemory element", "tests");
}

static void
other_cuda_init (OtherCuda * self)
{
  for (guint i = 0; i < 2; i++)
    gst_element_add_pad (self,
        gst_pad_new_from_static_template (&other_templates[i],
            other_templates[i].name_template));
}

static gboolean
links_between_others (const gchar * element)
{
  GstElement *before = g_object_new (other_cuda_get_type (), NULL);
  GstElement *after = g_object_new (other_cuda_get_type (), NULL);
  GstElement *ours = gst_element_factory_make (element, NULL);
  GstElement *bin = gst_bin_new (NULL);
  gboolean linked;

  gst_bin_add_many (GST_BIN (bin), before, ours, after, NULL);
  linked = gst_element_link_many (before, ours, after, NULL);
  gst_object_unref (bin);
  return linked;
}

GST_START_TEST (test_links_with_other_plugins_cuda_elements)
{
  gchar *saved = use_backend ("cuda");
  const gchar *elements[] = { "cudavisionupload", "cudafoveate",
    "cudaconvolve", "cudaphasecorr", "cudavisiondownload"
  };

  for (guint e = 0; e < G_N_ELEMENTS (elements); e++)
    fail_unless (links_between_others (elements[e]) ==
        gst_cuda_vision_interop_built (), "%s", elements[e]);
  g_setenv ("GST_CUDAVISION_BACKEND", "cpu", TRUE);
  fail_if (links_between_others ("cudafoveate"));
  cvtest_restore_env ("GST_CUDAVISION_BACKEND", saved);
}

GST_END_TEST;

GST_START_TEST (test_cpu_backend_refuses_cuda_memory)
{
  gchar *saved = use_backend ("cpu");
  /* gst_parse_launch would refuse to link it: linked unchecked here, it
   * meets the refusal where a pipeline built by hand would, in
   * negotiation */
  GstElement *pipeline = gst_parse_launch ("videotestsrc num-buffers=1 ! "
      "cudavisionupload name=up  capsfilter name=cf caps=video/x-raw("
      CUDA_MEMORY ") ! fakesink", NULL);
  GstElement *up = gst_bin_get_by_name (GST_BIN (pipeline), "up");
  GstElement *cf = gst_bin_get_by_name (GST_BIN (pipeline), "cf");
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;
  GError *error = NULL;
  gboolean warned = FALSE, failed = FALSE;

  fail_unless (gst_element_link_pads_full (up, "src", cf, "sink",
          GST_PAD_LINK_CHECK_NOTHING));
  gst_object_unref (up);
  gst_object_unref (cf);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  while (!failed && (msg = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND,
              GST_MESSAGE_WARNING | GST_MESSAGE_ERROR | GST_MESSAGE_EOS))) {
    fail_if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS,
        "the pipeline negotiated CUDAMemory on the CPU");
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING) {
      gst_message_parse_warning (msg, &error, NULL);
      warned |= strstr (error->message, "carries no memory:CUDAMemory") != NULL;
      g_clear_error (&error);
    }
    failed = GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR;
    gst_message_unref (msg);
  }
  fail_unless (failed && warned, "no error (%d) or no warning that says why "
      "(%d)", failed, warned);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  cvtest_restore_env ("GST_CUDAVISION_BACKEND", saved);
}

GST_END_TEST;

static gboolean
context_answered (GstElement * element, const gchar * type)
{
  GstQuery *query = gst_query_new_context (type);
  GstPad *pad = gst_element_get_static_pad (element, "src");
  gboolean answered = gst_pad_query (pad, query);

  gst_object_unref (pad);
  gst_query_unref (query);
  return answered;
}

/* Counts the need-context messages for @type on @bus. */
static guint
need_context_count (GstBus * bus, const gchar * type)
{
  GstMessage *msg;
  guint n = 0;

  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_NEED_CONTEXT))) {
    const gchar *t;

    if (gst_message_parse_context_type (msg, &t) && g_strcmp0 (t, type) == 0)
      n++;
    gst_message_unref (msg);
  }
  return n;
}

GST_START_TEST (test_context_handling)
{
  gchar *saved = use_backend ("cpu");
  GstElement *pipeline = gst_parse_launch ("videotestsrc ! "
      "cudavisionupload name=up device-id=-1 ! fakesink", NULL);
  GstElement *up = gst_bin_get_by_name (GST_BIN (pipeline), "up");
  GstElement *fixed = gst_element_factory_make ("cudavisionupload", NULL);
  GstBus *bus = gst_element_get_bus (pipeline);
  GstContext *bogus = gst_context_new (GST_CUDA_VISION_CUDA_CONTEXT_TYPE,
      TRUE);

  /* before it starts, an automatic element with no neighbour that has a
   * device has nothing to share, and a context without a CUDA context in
   * it is ignored */
  fail_if (context_answered (up, GST_CUDA_VISION_DEVICE_CONTEXT_TYPE));
  fail_if (context_answered (up, GST_CUDA_VISION_CUDA_CONTEXT_TYPE));
  gst_element_set_context (up, bogus);
  gst_context_unref (bogus);
  fail_if (context_answered (up, GST_CUDA_VISION_DEVICE_CONTEXT_TYPE));
  /* one with a device-id opens its device to answer */
  fail_unless (context_answered (fixed, GST_CUDA_VISION_DEVICE_CONTEXT_TYPE));
  gst_object_unref (fixed);

  fail_unless (gst_element_set_state (pipeline, GST_STATE_PAUSED) !=
      GST_STATE_CHANGE_FAILURE);
  fail_unless (gst_element_get_state (pipeline, NULL, NULL, 10 * GST_SECOND)
      == GST_STATE_CHANGE_SUCCESS);
  /* the CPU backend's device is shared, but no CUDA context is asked for
   * or given */
  fail_unless (context_answered (up, GST_CUDA_VISION_DEVICE_CONTEXT_TYPE));
  fail_if (context_answered (up, GST_CUDA_VISION_CUDA_CONTEXT_TYPE));
  fail_unless (need_context_count (bus,
          GST_CUDA_VISION_CUDA_CONTEXT_TYPE) == 0);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (up);
  gst_object_unref (pipeline);
  cvtest_restore_env ("GST_CUDAVISION_BACKEND", saved);
}

GST_END_TEST;

#ifdef HAVE_GST_CUDA
/* Frames of @format at each size of @sizes through @h, every one compared
 * with its input after @h's processing in @reference. */
static void
check_frames_equal (GstHarness * h, GstHarness * reference,
    GstVideoFormat format, const gint sizes[][2], guint n_sizes)
{
  for (guint s = 0; s < n_sizes; s++) {
    GstVideoInfo info;
    GstCaps *caps;

    gst_video_info_set_format (&info, format, sizes[s][0], sizes[s][1]);
    GST_VIDEO_INFO_FPS_N (&info) = 30;
    caps = gst_video_info_to_caps (&info);
    gst_harness_set_src_caps (h, gst_caps_ref (caps));
    if (reference)
      gst_harness_set_src_caps (reference, gst_caps_ref (caps));
    for (guint i = 0; i < 3; i++) {
      GstBuffer *in = cvtest_random_frame (&info, s * 7 + i + format);
      GstBuffer *out = cvtest_push_frame (h, in);
      GstBuffer *expected = reference ? cvtest_push_frame (reference, in) :
          gst_buffer_ref (in);

      cvtest_assert_frames_equal (expected, out, &info);
      gst_buffer_unref (expected);
      gst_buffer_unref (out);
      gst_buffer_unref (in);
    }
    gst_caps_unref (caps);
  }
}

static GstHarness *
harness (const gchar * launch)
{
  GstHarness *h = gst_harness_new_parse (launch);

  gst_harness_set_sink_caps_str (h, "video/x-raw");
  return h;
}

static const gint odd_sizes[][2] = { {641, 481}, {33, 9}, {320, 240} };

/* CUDAMemory laid out as GStreamer 1.24.0 to 1.24.3 lay out I420 (the V
 * plane half a pitch further on) is read as its video meta says. */
GST_START_TEST (test_cuda_memory_follows_its_meta)
{
  if (cvtest_backend () != CVCORE_BACKEND_CUDA)
    return;
  cvtest_assert_meta_layout_followed (CUDA_MEMORY);
}

GST_END_TEST;

/* Uploads into GStreamer's CUDA memory and downloads from it, through
 * renegotiations of format and size: every byte comes back. */
GST_START_TEST (test_cuda_memory_round_trip)
{
  GstHarness *h;

  if (cvtest_backend () != CVCORE_BACKEND_CUDA)
    return;
  h = harness ("cudavisionupload ! video/x-raw(" CUDA_MEMORY ") ! "
      "cudavisiondownload");
  check_frames_equal (h, NULL, GST_VIDEO_FORMAT_RGBA, odd_sizes, 3);
  check_frames_equal (h, NULL, GST_VIDEO_FORMAT_NV12, odd_sizes, 2);
  check_frames_equal (h, NULL, GST_VIDEO_FORMAT_I420_10LE, odd_sizes, 3);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Filters give the same output whichever device memory they read and
 * write, and chains of them in CUDA memory stay ordered on the device. */
GST_START_TEST (test_filters_in_cuda_memory)
{
  const gchar *chains[] = {
    "cudaconvolve preset=sharpen ! video/x-raw(" CUDA_MEMORY ")",
    "video/x-raw(" CUDA_MEMORY ") ! cudafoveate strength=2",
    "video/x-raw(" CUDA_MEMORY ") ! cudaconvolve preset=gaussian5 ! "
        "video/x-raw(" CUDA_MEMORY ") ! cudafoveate ! video/x-raw("
        CUDA_MEMORY ")",
  };
  const gchar *reference_chains[] = {
    "cudaconvolve preset=sharpen", "cudafoveate strength=2",
    "cudaconvolve preset=gaussian5 ! cudafoveate",
  };

  if (cvtest_backend () != CVCORE_BACKEND_CUDA)
    return;
  for (guint c = 0; c < G_N_ELEMENTS (chains); c++) {
    gchar *a = g_strdup_printf ("cudavisionupload ! %s ! cudavisiondownload",
        chains[c]);
    gchar *b = g_strdup_printf ("cudavisionupload ! %s ! cudavisiondownload",
        reference_chains[c]);
    GstHarness *h = harness (a), *reference = harness (b);

    check_frames_equal (h, reference, GST_VIDEO_FORMAT_NV12, odd_sizes, 2);
    check_frames_equal (h, reference, GST_VIDEO_FORMAT_RGBA, odd_sizes, 3);
    gst_harness_teardown (h);
    gst_harness_teardown (reference);
    g_free (a);
    g_free (b);
  }
}

GST_END_TEST;

/* A use of CUDAMemory that the host saw finish needs no wait on the device
 * from later uses, but only where that stream's use was the last: after a
 * tee's other branch, or a use that came after, later uses still wait. */
GST_START_TEST (test_use_finished_only_for_the_last_use)
{
  GstCudaVisionDevice *device;
  cvcore_device *core;
  cvcore_stream *branch_a, *branch_b, *later;
  cvcore_event *probe;
  GstBufferPool *pool;
  GstBuffer *buffer;
  GstMemory *mem;
  GstCaps *caps;

  if (cvtest_backend () != CVCORE_BACKEND_CUDA)
    return;
  device = gst_cuda_vision_device_new (0, NULL);
  fail_unless (device != NULL);
  core = gst_cuda_vision_device_get_core (device);
  fail_unless_equals_int (cvcore_stream_new (core, &branch_a), CVCORE_OK);
  fail_unless_equals_int (cvcore_stream_new (core, &branch_b), CVCORE_OK);
  fail_unless_equals_int (cvcore_stream_new (core, &later), CVCORE_OK);
  fail_unless_equals_int (cvcore_event_new (core, false, &probe), CVCORE_OK);
  caps = gst_caps_from_string ("video/x-raw(" CUDA_MEMORY "),format=RGBA,"
      "width=64,height=64,framerate=30/1");
  pool =
      gst_cuda_vision_cuda_pool_new_configured (device, branch_a, caps, 1, 0);
  fail_unless (pool != NULL);
  fail_unless (gst_buffer_pool_set_active (pool, TRUE));
  fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &buffer,
          NULL), GST_FLOW_OK);
  mem = gst_buffer_peek_memory (buffer, 0);

  for (guint round = 0; round < 2; round++) {
    /* round 0: two branches use the memory, b for 200 ms, and a finishes;
     * round 1: b's use comes after a's finished */
    fail_unless (gst_cuda_vision_cuda_memory_begin_access (mem, branch_a));
    fail_unless (gst_cuda_vision_cuda_memory_end_access (mem, device,
            branch_a));
    if (round == 1) {
      fail_unless_equals_int (cvcore_stream_finish (branch_a), CVCORE_OK);
      gst_cuda_vision_cuda_buffer_use_finished (buffer, branch_a);
    }
    fail_unless (gst_cuda_vision_cuda_memory_begin_access (mem, branch_b));
    fail_unless_equals_int (cvcore_stream_delay (branch_b, 200), CVCORE_OK);
    fail_unless (gst_cuda_vision_cuda_memory_end_access (mem, device,
            branch_b));
    fail_unless_equals_int (cvcore_stream_finish (branch_a), CVCORE_OK);
    gst_cuda_vision_cuda_buffer_use_finished (buffer, branch_a);

    fail_unless (gst_cuda_vision_cuda_memory_begin_access (mem, later));
    fail_unless_equals_int (cvcore_event_record (probe, later), CVCORE_OK);
    fail_unless_equals_int (cvcore_event_query (probe), CVCORE_ERROR_NOT_READY);
    fail_unless_equals_int (cvcore_stream_finish (later), CVCORE_OK);
    fail_unless_equals_int (cvcore_stream_finish (branch_b), CVCORE_OK);
  }

  gst_buffer_unref (buffer);
  gst_buffer_pool_set_active (pool, FALSE);
  gst_object_unref (pool);
  gst_caps_unref (caps);
  cvcore_event_free (probe);
  cvcore_stream_free (later);
  cvcore_stream_free (branch_b);
  cvcore_stream_free (branch_a);
  gst_object_unref (device);
}

GST_END_TEST;

#ifdef HAVE_GST_CUDA_STREAM
/* From 1.24 a filter's CUDAMemory names the filter's stream and says that
 * work may still be pending there, where 1.22 needs a wait on the host: a
 * consumer that syncs the memory, as GStreamer's CUDA elements do, reads
 * the finished frame. */
GST_START_TEST (test_cuda_memory_carries_stream)
{
  GstHarness *h, *reference;
  GstVideoInfo info;

  if (cvtest_backend () != CVCORE_BACKEND_CUDA)
    return;
  h = gst_harness_new_parse ("cudavisionupload ! video/x-raw(" CUDA_MEMORY
      ") ! cudafoveate strength=2");
  gst_harness_set_sink_caps_str (h, "video/x-raw(" CUDA_MEMORY ")");
  reference = harness ("cudavisionupload ! cudafoveate strength=2 ! "
      "cudavisiondownload");
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 641, 481);
  GST_VIDEO_INFO_FPS_N (&info) = 30;
  gst_harness_set_src_caps (h, gst_video_info_to_caps (&info));
  gst_harness_set_src_caps (reference, gst_video_info_to_caps (&info));
  for (guint i = 0; i < 3; i++) {
    GstBuffer *in = cvtest_random_frame (&info, 40 + i);
    GstBuffer *out = cvtest_push_frame (h, in);
    GstBuffer *expected = cvtest_push_frame (reference, in);
    GstMemory *mem = gst_buffer_peek_memory (out, 0);

    fail_unless (gst_is_cuda_memory (mem));
    fail_unless (gst_cuda_memory_get_stream (GST_CUDA_MEMORY_CAST (mem)));
    fail_unless (GST_MEMORY_FLAG_IS_SET (mem,
            GST_CUDA_MEMORY_TRANSFER_NEED_SYNC));
    gst_cuda_memory_sync (GST_CUDA_MEMORY_CAST (mem));
    cvtest_assert_frames_equal (expected, out, &info);
    gst_buffer_unref (expected);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  gst_harness_teardown (h);
  gst_harness_teardown (reference);
}

GST_END_TEST;
#endif

/* A flushing seek and state changes with frames in CUDA memory in flight
 * between queues: the first frame comes again, intact.
 *
 * The sink drops while the state toggles: in GStreamer 1.22 an appsink
 * whose streaming thread waits for room in a full queue can keep its
 * preroll lock through a quick PLAYING-PAUSED-PLAYING, and the next state
 * change then waits on it for ever (seen with stock elements alone). A
 * flushing seek then empties it for the check. */
GST_START_TEST (test_cuda_memory_flushing_seek)
{
  GstElement *pipeline, *sink;
  GstVideoInfo info;

  if (cvtest_backend () != CVCORE_BACKEND_CUDA)
    return;
  pipeline = gst_parse_launch ("videotestsrc pattern=ball ! "
      "video/x-raw,format=RGBA,width=203,height=151,framerate=30/1 ! "
      "cudavisionupload ! video/x-raw(" CUDA_MEMORY ") ! queue "
      "max-size-buffers=3 ! cudafoveate ! queue max-size-buffers=3 ! "
      "cudavisiondownload ! appsink name=sink sync=false max-buffers=2", NULL);
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, 203, 151);
  g_object_set (sink, "drop", TRUE, NULL);
  for (guint i = 0; i < 4; i++) {
    fail_unless (gst_element_set_state (pipeline, i % 2 ? GST_STATE_PAUSED :
            GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE);
    fail_unless_equals_int (gst_element_get_state (pipeline, NULL, NULL,
            10 * GST_SECOND), GST_STATE_CHANGE_SUCCESS);
  }
  g_object_set (sink, "drop", FALSE, NULL);
  fail_unless (gst_element_seek_simple (pipeline, GST_FORMAT_TIME,
          GST_SEEK_FLAG_FLUSH, 0));
  fail_unless_equals_int (gst_element_get_state (pipeline, NULL, NULL,
          10 * GST_SECOND), GST_STATE_CHANGE_SUCCESS);
  cvtest_assert_seek_restarts (pipeline, sink, &info);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
}

GST_END_TEST;

static GstCudaContext *
element_cuda_context (GstElement * element)
{
  GstQuery *query = gst_query_new_context (GST_CUDA_CONTEXT_TYPE);
  GstPad *pad = gst_element_get_static_pad (element, "src");
  GstCudaContext *ctx = NULL;
  GstContext *context = NULL;

  if (gst_pad_query (pad, query)) {
    gst_query_parse_context (query, &context);
    gst_structure_get (gst_context_get_structure (context),
        GST_CUDA_CONTEXT_TYPE, GST_TYPE_CUDA_CONTEXT, &ctx, NULL);
  }
  gst_object_unref (pad);
  gst_query_unref (query);
  return ctx;
}

/* An application makes one CUDA context and sets it on two pipelines:
 * the elements of both work in it, and share it onwards. */
GST_START_TEST (test_application_context_two_pipelines)
{
  GstCudaContext *app_ctx;
  GstElement *pipeline[2], *fov[2];

  if (cvtest_backend () != CVCORE_BACKEND_CUDA)
    return;
  fail_unless (gst_cuda_load_library ());
  app_ctx = gst_cuda_context_new (0);
  fail_unless (app_ctx != NULL);
  for (gint i = 0; i < 2; i++) {
    GstContext *context = gst_context_new_cuda_context (app_ctx);

    pipeline[i] = gst_parse_launch ("videotestsrc num-buffers=5 ! "
        "video/x-raw,format=NV12,width=97,height=61 ! cudavisionupload ! "
        "cudafoveate name=f ! cudavisiondownload ! fakesink", NULL);
    gst_element_set_context (pipeline[i], context);
    gst_context_unref (context);
    fov[i] = gst_bin_get_by_name (GST_BIN (pipeline[i]), "f");
    fail_unless (gst_element_set_state (pipeline[i], GST_STATE_PAUSED) !=
        GST_STATE_CHANGE_FAILURE);
    fail_unless (gst_element_get_state (pipeline[i], NULL, NULL,
            10 * GST_SECOND) == GST_STATE_CHANGE_SUCCESS);
  }
  for (gint i = 0; i < 2; i++) {
    GstCudaContext *ctx = element_cuda_context (fov[i]);
    GstMessage *msg;

    fail_unless (ctx == app_ctx, "pipeline %d works in another context", i);
    gst_object_unref (ctx);
    msg = cvtest_run_to_end (pipeline[i], 20 * GST_SECOND);
    fail_unless (msg == NULL);
    gst_element_set_state (pipeline[i], GST_STATE_NULL);
    gst_object_unref (fov[i]);
    gst_object_unref (pipeline[i]);
  }
  gst_object_unref (app_ctx);
}

GST_END_TEST;
#endif

static Suite *
interop_suite (void)
{
  Suite *s = suite_create ("interop");
  TCase *tc = tcase_create ("general");

  if (!cvtest_register_linked_plugin ())
    g_error ("cannot register the elements under test");
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_templates);
  tcase_add_test (tc, test_caps_both_memories_every_direction);
  tcase_add_test (tc, test_links_with_other_plugins_cuda_elements);
  tcase_add_test (tc, test_cpu_backend_refuses_cuda_memory);
  tcase_add_test (tc, test_context_handling);
#ifdef HAVE_GST_CUDA
  tcase_add_test (tc, test_cuda_memory_round_trip);
  tcase_add_test (tc, test_cuda_memory_follows_its_meta);
  tcase_add_test (tc, test_filters_in_cuda_memory);
  tcase_add_test (tc, test_use_finished_only_for_the_last_use);
#ifdef HAVE_GST_CUDA_STREAM
  tcase_add_test (tc, test_cuda_memory_carries_stream);
#endif
  tcase_add_test (tc, test_cuda_memory_flushing_seek);
  tcase_add_test (tc, test_application_context_two_pipelines);
#endif
  suite_add_tcase (s, tc);
  return s;
}

int
main (int argc, char **argv)
{
  return cvtest_main (argc, argv, interop_suite);
}
