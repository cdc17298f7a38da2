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

/* Tests of the cvcore C API on the backend GST_CUDAVISION_BACKEND names. */
#include <string.h>
#include <sys/stat.h>
#include <glib/gstdio.h>

#include "cvcore-private.h"
#include "cvtest.h"

static cvcore_device *device;
static cvcore_stream *stream;

static void
open_device (void)
{
  fail_unless_equals_int (cvcore_device_open (cvtest_backend (), 0, &device),
      CVCORE_OK);
  fail_unless_equals_int (cvcore_stream_new (device, &stream), CVCORE_OK);
}

static void
close_device (void)
{
  cvcore_stream_free (stream);
  cvcore_device_close (device);
}

GST_START_TEST (test_device_properties)
{
  int count = 0;
  size_t align = cvcore_device_pitch_alignment (device);

  fail_unless_equals_int (cvcore_device_count (cvtest_backend (), &count),
      CVCORE_OK);
  fail_unless (count >= 1);
  fail_unless_equals_int (cvcore_device_backend (device), cvtest_backend ());
  fail_unless_equals_int (cvcore_device_id (device), 0);
  fail_unless (strlen (cvcore_device_name (device)) > 0);
  /* A power of two no smaller than what texture fetches need. */
  fail_unless (align >= 256 && (align & (align - 1)) == 0);
  fail_unless_equals_uint64 (cvcore_pitch_for_width (device, 1), align);
  fail_unless_equals_uint64 (cvcore_pitch_for_width (device, align), align);
  fail_unless_equals_uint64 (cvcore_pitch_for_width (device, align + 1),
      2 * align);
}

GST_END_TEST;

GST_START_TEST (test_invalid_device_id)
{
  cvcore_device *other = (cvcore_device *) 0x1;
  int count;

  fail_unless_equals_int (cvcore_device_count (cvtest_backend (), &count),
      CVCORE_OK);
  fail_unless_equals_int (cvcore_device_open (cvtest_backend (), count,
          &other), CVCORE_ERROR_INVALID_DEVICE);
  fail_unless (other == NULL);
  fail_unless (strstr (cvcore_last_error (), "out of range") != NULL);
  fail_unless_equals_int (cvcore_device_open (cvtest_backend (), -1, &other),
      CVCORE_ERROR_INVALID_DEVICE);
}

GST_END_TEST;

GST_START_TEST (test_backend_names)
{
  cvcore_backend backend;

  fail_unless (cvcore_backend_from_string ("cpu", &backend));
  fail_unless_equals_int (backend, CVCORE_BACKEND_CPU);
  fail_unless (cvcore_backend_from_string ("cuda", &backend));
  fail_unless_equals_int (backend, CVCORE_BACKEND_CUDA);
  fail_unless (cvcore_backend_from_string (NULL, &backend));
  fail_unless_equals_int (backend, CVCORE_BACKEND_CUDA);
  fail_if (cvcore_backend_from_string ("opencl", &backend));
  fail_unless (cvcore_backend_is_built (CVCORE_BACKEND_CPU));
  fail_unless_equals_string (cvcore_backend_name (CVCORE_BACKEND_CPU), "cpu");
}

GST_END_TEST;

/* Host -> pitched device plane -> device plane of another pitch -> host,
 * at sizes that do not fill the pitch. */
GST_START_TEST (test_pitched_round_trip)
{
  static const size_t sizes[][2] = { {1, 1}, {3, 7}, {255, 3}, {257, 2},
  {1921 * 4, 33}
  };

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++) {
    size_t width = sizes[i][0], height = sizes[i][1];
    size_t host_pitch = width + 13, pitch_a, pitch_b;
    guint8 *src, *dst;
    void *plane_a, *plane_b;

    fail_unless_equals_int (cvcore_host_alloc (device, host_pitch * height,
            (void **) &src), CVCORE_OK);
    fail_unless_equals_int (cvcore_host_alloc (device, host_pitch * height,
            (void **) &dst), CVCORE_OK);
    cvtest_fill_random (src, host_pitch * height, i + 1);
    memset (dst, 0xa5, host_pitch * height);
    fail_unless_equals_int (cvcore_plane_alloc (device, width, height,
            &plane_a, &pitch_a), CVCORE_OK);
    fail_unless_equals_int (cvcore_plane_alloc (device, width + 300, height,
            &plane_b, &pitch_b), CVCORE_OK);
    fail_unless (pitch_a >= width && pitch_a % 256 == 0);
    fail_unless (pitch_b > pitch_a);

    fail_unless_equals_int (cvcore_copy_2d_async (stream, plane_a, pitch_a,
            src, host_pitch, width, height, CVCORE_COPY_HOST_TO_DEVICE),
        CVCORE_OK);
    fail_unless_equals_int (cvcore_copy_2d_async (stream, plane_b, pitch_b,
            plane_a, pitch_a, width, height, CVCORE_COPY_DEVICE_TO_DEVICE),
        CVCORE_OK);
    fail_unless_equals_int (cvcore_copy_2d_async (stream, dst, host_pitch,
            plane_b, pitch_b, width, height, CVCORE_COPY_DEVICE_TO_HOST),
        CVCORE_OK);
    fail_unless_equals_int (cvcore_stream_synchronize (stream), CVCORE_OK);

    for (size_t y = 0; y < height; y++) {
      fail_unless (memcmp (dst + y * host_pitch, src + y * host_pitch,
              width) == 0, "row %zu of %zux%zu differs", y, width, height);
      /* The padding of the destination rows is left alone. */
      for (size_t x = width; x < host_pitch; x++)
        fail_unless_equals_int (dst[y * host_pitch + x], 0xa5);
    }
    cvcore_device_free (device, plane_a);
    cvcore_device_free (device, plane_b);
    cvcore_host_free (device, src);
    cvcore_host_free (device, dst);
  }
}

GST_END_TEST;

GST_START_TEST (test_linear_copy_and_memset)
{
  const size_t size = 200000;
  guint8 *host;
  void *dev;

  fail_unless_equals_int (cvcore_host_alloc (device, size, (void **) &host),
      CVCORE_OK);
  fail_unless_equals_int (cvcore_device_alloc (device, size, &dev), CVCORE_OK);
  cvtest_fill_random (host, size, 7);
  fail_unless_equals_int (cvcore_copy_async (stream, dev, host, size,
          CVCORE_COPY_HOST_TO_DEVICE), CVCORE_OK);
  /* Clear a 10x100 window of the buffer seen as rows of 1000 bytes. */
  fail_unless_equals_int (cvcore_memset_2d_async (stream,
          (guint8 *) dev + 2000 + 5, 1000, 0x3c, 10, 100), CVCORE_OK);
  memset (host, 0, size);
  /* the copy back comes late, and the sleeping wait still sees it done */
  fail_unless_equals_int (cvcore_stream_delay (stream, 20), CVCORE_OK);
  fail_unless_equals_int (cvcore_copy_async (stream, host, dev, size,
          CVCORE_COPY_DEVICE_TO_HOST), CVCORE_OK);
  fail_unless_equals_int (cvcore_stream_finish (stream), CVCORE_OK);
  {
    guint8 *expect = g_malloc (size);

    cvtest_fill_random (expect, size, 7);
    for (size_t y = 2; y < 2 + 100; y++)
      memset (expect + y * 1000 + 5, 0x3c, 10);
    fail_unless (memcmp (expect, host, size) == 0);
    g_free (expect);
  }
  cvcore_device_free (device, dev);
  cvcore_host_free (device, host);
}

GST_END_TEST;

/* Only a CUDA device wraps a stream that someone else made, and never a
 * null one (GStreamer's CUDA streams, on the GPU, are wrapped in the
 * interop tests). */
GST_START_TEST (test_stream_wrap_refusals)
{
  cvcore_stream *wrapped = NULL;
  int not_a_stream;

  fail_if (cvcore_stream_wrap (device, NULL, &wrapped) == CVCORE_OK);
  fail_unless (wrapped == NULL);
  if (cvcore_device_backend (device) == CVCORE_BACKEND_CPU) {
    fail_if (cvcore_stream_wrap (device, &not_a_stream, &wrapped) == CVCORE_OK);
    fail_unless (wrapped == NULL);
  }
}

GST_END_TEST;

/* Ordinary memory, registered, is copied from and into asynchronously;
 * overlapping and unknown ranges are refused, and a range can be
 * registered again once it was unregistered. */
GST_START_TEST (test_registered_host_memory)
{
  const size_t size = 3 * 65536 + 100;
  guint8 *host = g_malloc (size), *back = g_malloc0 (size);
  void *dev;

  cvtest_fill_random (host, size, 11);
  fail_unless_equals_int (cvcore_device_alloc (device, size, &dev), CVCORE_OK);
  fail_unless_equals_int (cvcore_host_register (device, host, size), CVCORE_OK);
  fail_unless_equals_int (cvcore_host_register (device, back, size), CVCORE_OK);
  fail_if (cvcore_host_register (device, host + 4096, 100) == CVCORE_OK);
  fail_unless_equals_int (cvcore_copy_async (stream, dev, host, size,
          CVCORE_COPY_HOST_TO_DEVICE), CVCORE_OK);
  fail_unless_equals_int (cvcore_copy_async (stream, back, dev, size,
          CVCORE_COPY_DEVICE_TO_HOST), CVCORE_OK);
  fail_unless_equals_int (cvcore_stream_finish (stream), CVCORE_OK);
  fail_unless (memcmp (host, back, size) == 0);
  fail_unless_equals_int (cvcore_host_unregister (device, host), CVCORE_OK);
  fail_unless_equals_int (cvcore_host_unregister (device, back), CVCORE_OK);
  fail_if (cvcore_host_unregister (device, back) == CVCORE_OK);
  fail_unless_equals_int (cvcore_host_register (device, host, size), CVCORE_OK);
  fail_unless_equals_int (cvcore_host_unregister (device, host), CVCORE_OK);
  /* a refused registration leaves no error behind for the next launch */
  fail_unless_equals_int (cvcore_stream_delay (stream, 1), CVCORE_OK);
  fail_unless_equals_int (cvcore_stream_finish (stream), CVCORE_OK);
  cvcore_device_free (device, dev);
  g_free (host);
  g_free (back);
}

GST_END_TEST;

GST_START_TEST (test_bad_copies_are_refused)
{
  guint8 buf[64];

  fail_unless_equals_int (cvcore_copy_2d_async (stream, buf, 8, buf + 32, 16,
          16, 2, CVCORE_COPY_HOST_TO_HOST), CVCORE_ERROR_INVALID_VALUE);
  fail_unless (strlen (cvcore_last_error ()) > 0);
  fail_unless_equals_int (cvcore_copy_2d_async (stream, NULL, 16, buf, 16,
          16, 2, CVCORE_COPY_HOST_TO_HOST), CVCORE_ERROR_INVALID_VALUE);
  fail_unless_equals_int (cvcore_memset_2d_async (stream, buf, 4, 0, 8, 2),
      CVCORE_ERROR_INVALID_VALUE);
  /* Empty work is no error. */
  fail_unless_equals_int (cvcore_copy_async (stream, NULL, NULL, 0,
          CVCORE_COPY_HOST_TO_HOST), CVCORE_OK);
}

GST_END_TEST;

/* A second stream ordered after the first by an event sees its writes. */
GST_START_TEST (test_events_order_streams)
{
  const size_t size = 1 << 22;
  cvcore_stream *other;
  cvcore_event *done, *start, *end;
  guint8 *host;
  void *a, *b;
  float ms = -1.0f;

  fail_unless_equals_int (cvcore_stream_new (device, &other), CVCORE_OK);
  fail_unless_equals_int (cvcore_event_new (device, false, &done), CVCORE_OK);
  fail_unless_equals_int (cvcore_event_new (device, true, &start), CVCORE_OK);
  fail_unless_equals_int (cvcore_event_new (device, true, &end), CVCORE_OK);
  fail_unless_equals_int (cvcore_host_alloc (device, size, (void **) &host),
      CVCORE_OK);
  fail_unless_equals_int (cvcore_device_alloc (device, size, &a), CVCORE_OK);
  fail_unless_equals_int (cvcore_device_alloc (device, size, &b), CVCORE_OK);

  cvtest_fill_random (host, size, 3);
  fail_unless_equals_int (cvcore_event_record (start, stream), CVCORE_OK);
  fail_unless_equals_int (cvcore_copy_async (stream, a, host, size,
          CVCORE_COPY_HOST_TO_DEVICE), CVCORE_OK);
  fail_unless_equals_int (cvcore_event_record (done, stream), CVCORE_OK);
  fail_unless_equals_int (cvcore_stream_wait_event (other, done), CVCORE_OK);
  fail_unless_equals_int (cvcore_copy_async (other, b, a, size,
          CVCORE_COPY_DEVICE_TO_DEVICE), CVCORE_OK);
  fail_unless_equals_int (cvcore_event_record (end, other), CVCORE_OK);
  fail_unless_equals_int (cvcore_event_synchronize (end), CVCORE_OK);
  fail_unless_equals_int (cvcore_event_query (end), CVCORE_OK);
  fail_unless_equals_int (cvcore_event_query (done), CVCORE_OK);
  fail_unless_equals_int (cvcore_event_elapsed_ms (start, end, &ms), CVCORE_OK);
  fail_unless (ms >= 0.0f);
  /* Events made without timing cannot be measured. */
  fail_unless (cvcore_event_elapsed_ms (done, end, &ms) != CVCORE_OK);

  memset (host, 0, size);
  fail_unless_equals_int (cvcore_copy_async (other, host, b, size,
          CVCORE_COPY_DEVICE_TO_HOST), CVCORE_OK);
  fail_unless_equals_int (cvcore_stream_synchronize (other), CVCORE_OK);
  {
    guint8 *expect = g_malloc (size);

    cvtest_fill_random (expect, size, 3);
    fail_unless (memcmp (expect, host, size) == 0);
    g_free (expect);
  }
  cvcore_device_free (device, a);
  cvcore_device_free (device, b);
  cvcore_host_free (device, host);
  cvcore_event_free (done);
  cvcore_event_free (start);
  cvcore_event_free (end);
  cvcore_stream_free (other);
}

GST_END_TEST;

/* Two streams, and two events of the ordering tests. */
typedef struct
{
  cvcore_stream *a, *b;
  cvcore_event *mark, *after;
} OrderingCase;

static void
ordering_case_init (OrderingCase * c)
{
  fail_unless_equals_int (cvcore_stream_new (device, &c->a), CVCORE_OK);
  fail_unless_equals_int (cvcore_stream_new (device, &c->b), CVCORE_OK);
  fail_unless_equals_int (cvcore_event_new (device, false, &c->mark),
      CVCORE_OK);
  fail_unless_equals_int (cvcore_event_new (device, false, &c->after),
      CVCORE_OK);
}

static void
ordering_case_clear (OrderingCase * c)
{
  cvcore_event_free (c->after);
  cvcore_event_free (c->mark);
  cvcore_stream_free (c->b);
  cvcore_stream_free (c->a);
}

/* Stream a records mark after a delay, b waits for it @waits times and
 * records after: after is done only once mark is, where the device queues
 * the work (CUDA) pending until then. */
static void
assert_wait_orders (const OrderingCase * c, gint waits)
{
  fail_unless_equals_int (cvcore_stream_delay (c->a, 100), CVCORE_OK);
  fail_unless_equals_int (cvcore_event_record (c->mark, c->a), CVCORE_OK);
  for (gint i = 0; i < waits; i++)
    fail_unless_equals_int (cvcore_stream_wait_event (c->b, c->mark),
        CVCORE_OK);
  fail_unless_equals_int (cvcore_event_record (c->after, c->b), CVCORE_OK);
  if (cvtest_backend () == CVCORE_BACKEND_CUDA)
    fail_unless_equals_int (cvcore_event_query (c->after),
        CVCORE_ERROR_NOT_READY);
  fail_unless_equals_int (cvcore_event_synchronize (c->after), CVCORE_OK);
  fail_unless_equals_int (cvcore_event_query (c->mark), CVCORE_OK);
}

/* A stream that waited for an event's record waits again for a later
 * record, whichever stream made it: the waits left out are only those for
 * a record that the stream's order already follows. On the CPU backend
 * work is done when queued, so only the results are checked there. */
GST_START_TEST (test_event_waits_follow_each_record)
{
  OrderingCase c;

  ordering_case_init (&c);

  /* never recorded: nothing to wait for */
  fail_unless_equals_int (cvcore_stream_wait_event (c.b, c.mark), CVCORE_OK);
  fail_unless_equals_int (cvcore_stream_synchronize (c.b), CVCORE_OK);
  /* a record of another stream, waited for twice */
  assert_wait_orders (&c, 2);
  /* the stream's own record and a wait for it, then the other's */
  fail_unless_equals_int (cvcore_event_record (c.mark, c.b), CVCORE_OK);
  fail_unless_equals_int (cvcore_stream_wait_event (c.b, c.mark), CVCORE_OK);
  assert_wait_orders (&c, 1);

  ordering_case_clear (&c);
}

GST_END_TEST;

/* A stream settles an event whose last record it made or waited for, not
 * one that another stream recorded since; a record after the settling is
 * still waited for. */
GST_START_TEST (test_settled_event_waits_for_later_records)
{
  OrderingCase c;

  ordering_case_init (&c);

  fail_unless_equals_int (cvcore_event_record (c.mark, c.a), CVCORE_OK);
  fail_unless_equals_int (cvcore_stream_wait_event (c.b, c.mark), CVCORE_OK);
  fail_unless_equals_int (cvcore_event_record (c.mark, c.a), CVCORE_OK);
  fail_unless_equals_int (cvcore_stream_synchronize (c.b), CVCORE_OK);
  fail_if (cvcore_event_settle (c.mark, c.b));
  fail_unless_equals_int (cvcore_stream_wait_event (c.b, c.mark), CVCORE_OK);
  fail_unless_equals_int (cvcore_stream_synchronize (c.b), CVCORE_OK);
  fail_unless (cvcore_event_settle (c.mark, c.b));
  assert_wait_orders (&c, 1);
  fail_unless_equals_int (cvcore_event_record (c.mark, c.b), CVCORE_OK);
  fail_unless_equals_int (cvcore_stream_synchronize (c.b), CVCORE_OK);
  fail_unless (cvcore_event_settle (c.mark, c.b));
  fail_unless (cvcore_event_settle (c.mark, c.a));

  ordering_case_clear (&c);
}

GST_END_TEST;

GST_START_TEST (test_huge_allocation_fails_cleanly)
{
  void *ptr = (void *) 0x1;

  fail_unless_equals_int (cvcore_device_alloc (device, (size_t) 1 << 60,
          &ptr), CVCORE_ERROR_OUT_OF_MEMORY);
  fail_unless (ptr == NULL);
  fail_unless (strlen (cvcore_last_error ()) > 0);
}

GST_END_TEST;

/* A stream's scratch keeps what was made under a key until another key,
 * a larger size or forgetting replaces it. */
/* The 64 bytes of scratch memory @ptr all hold @value. */
static void
assert_scratch_holds (void *ptr, guint8 value)
{
  guint8 back[64];

  fail_unless_equals_int (cvcore_copy_async (stream, back, ptr, 64,
          CVCORE_COPY_DEVICE_TO_HOST), CVCORE_OK);
  fail_unless_equals_int (cvcore_stream_synchronize (stream), CVCORE_OK);
  for (gint i = 0; i < 64; i++)
    fail_unless_equals_int (back[i], value);
}

/* The stream's scratch of @size bytes under @key, which it must have kept
 * (@want_kept) or not. */
static void *
scratch_under (size_t size, const char *key, bool want_kept)
{
  void *ptr;
  bool kept;

  fail_unless_equals_int (cv_stream_scratch (stream, size, key,
          strlen (key), &ptr, &kept), CVCORE_OK);
  fail_unless (ptr != NULL);
  fail_unless (kept == want_kept, "key \"%s\": kept %d", key, kept);
  return ptr;
}

GST_START_TEST (test_stream_scratch)
{
  void *made = scratch_under (64, "a", false), *other;

  fail_unless_equals_int (cvcore_memset_2d_async (stream, made, 64, 7, 64,
          1), CVCORE_OK);
  fail_unless (scratch_under (32, "a", true) == made);
  assert_scratch_holds (made, 7);
  /* a second key takes the other memory; both stay, in turn */
  other = scratch_under (64, "b", false);
  fail_unless (other != made);
  fail_unless_equals_int (cvcore_memset_2d_async (stream, other, 64, 9, 64,
          1), CVCORE_OK);
  fail_unless (scratch_under (64, "a", true) == made);
  assert_scratch_holds (made, 7);
  fail_unless (scratch_under (64, "b", true) == other);
  assert_scratch_holds (other, 9);
  /* a third key takes the memory used least recently, "a"'s */
  fail_unless (scratch_under (64, "c", false) == made);
  fail_unless (scratch_under (64, "b", true) == other);
  fail_unless (scratch_under (64, "a", false) == made);
  /* a longer key, equal in its first byte, is another key; its record
   * grows */
  fail_unless (scratch_under (64, "aaaaaaaa", false) == other);
  fail_unless (scratch_under (64, "aaaaaaaa", true) == other);
  /* growing loses what was kept */
  made = scratch_under (1 << 20, "a", false);
  fail_unless (scratch_under (1 << 20, "a", true) == made);
  /* forgetting one memory leaves the other */
  cv_stream_scratch_forget (stream, made);
  fail_unless (scratch_under (64, "aaaaaaaa", true) == other);
  fail_unless (scratch_under (64, "a", false) == made);
}

GST_END_TEST;

/* Devices opened apart on one GPU share its primary context, so their
 * events and streams mix; so do the CPU backend's, whose work is done
 * when it is queued. */
GST_START_TEST (test_events_across_devices_of_one_context)
{
  cvcore_device *other;
  cvcore_event *event;

  fail_unless_equals_int (cvcore_device_open (cvtest_backend (), 0, &other),
      CVCORE_OK);
  fail_unless_equals_int (cvcore_event_new (other, false, &event), CVCORE_OK);
  fail_unless_equals_int (cvcore_event_record (event, stream), CVCORE_OK);
  fail_unless (cvcore_device_context (other) == cvcore_device_context (device));
  fail_unless ((cvcore_device_context (other) != NULL) ==
      (cvtest_backend () == CVCORE_BACKEND_CUDA));
  fail_unless_equals_int (cvcore_event_synchronize (event), CVCORE_OK);
  cvcore_event_free (event);
  cvcore_device_close (other);
}

GST_END_TEST;

static void
assert_file_refused (const char *path, size_t max_size, const char *needle)
{
  FILE *file = NULL;
  size_t size;

  fail_unless_equals_int (cvcore_file_open (path, max_size, &file, &size),
      CVCORE_ERROR_INVALID_VALUE);
  fail_unless (file == NULL);
  fail_unless (strstr (cvcore_last_error (), needle) != NULL,
      "%s: '%s' lacks '%s'", path, cvcore_last_error (), needle);
}

/* Files that properties name: only regular files under a size cap, and
 * special files refused at once rather than read without end or blocked
 * on. */
GST_START_TEST (test_file_open)
{
  gchar *dir = g_dir_make_tmp ("cvtest-XXXXXX", NULL);
  gchar *regular = g_build_filename (dir, "regular", NULL);
  gchar *fifo = g_build_filename (dir, "fifo", NULL);
  FILE *file;
  size_t size = 0;
  char text[8] = "";

  fail_unless (g_file_set_contents (regular, "12345", 5, NULL));
  fail_unless (mkfifo (fifo, 0600) == 0);
  fail_unless_equals_int (cvcore_file_open (regular, 5, &file, &size),
      CVCORE_OK);
  fail_unless_equals_uint64 (size, 5);
  fail_unless_equals_int (fread (text, 1, sizeof (text), file), 5);
  fclose (file);
  assert_file_refused (regular, 4, "more than the 4");
  assert_file_refused (fifo, 100, "a FIFO");
  assert_file_refused (dir, 100, "a directory");
  assert_file_refused ("/dev/zero", 100, "not a regular file");
  assert_file_refused ("/nonexistent/map.pgm", 100, "cannot open");
  g_unlink (fifo);
  g_unlink (regular);
  g_rmdir (dir);
  g_free (fifo);
  g_free (regular);
  g_free (dir);
}

GST_END_TEST;

static Suite *
core_suite (void)
{
  Suite *s = suite_create ("cvcore");
  TCase *tc = tcase_create ("general");

  tcase_add_checked_fixture (tc, open_device, close_device);
  tcase_add_test (tc, test_device_properties);
  tcase_add_test (tc, test_invalid_device_id);
  tcase_add_test (tc, test_backend_names);
  tcase_add_test (tc, test_pitched_round_trip);
  tcase_add_test (tc, test_linear_copy_and_memset);
  tcase_add_test (tc, test_stream_wrap_refusals);
  tcase_add_test (tc, test_bad_copies_are_refused);
  tcase_add_test (tc, test_events_order_streams);
  tcase_add_test (tc, test_event_waits_follow_each_record);
  tcase_add_test (tc, test_settled_event_waits_for_later_records);
  tcase_add_test (tc, test_stream_scratch);
  tcase_add_test (tc, test_huge_allocation_fails_cleanly);
  tcase_add_test (tc, test_file_open);
  tcase_add_test (tc, test_events_across_devices_of_one_context);
  tcase_add_test (tc, test_registered_host_memory);
  suite_add_tcase (s, tc);
  return s;
}

int
main (int argc, char **argv)
{
  return cvtest_main (argc, argv, core_suite);
}
