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

/* Transfers of pageable frames through page-locked staging, by several
 * threads: see the header. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudavisionrowcopier.h"
#include "gstcudavisionutils.h"

#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cuda_vision_row_copier_debug);
#define GST_CAT_DEFAULT gst_cuda_vision_row_copier_debug

/* Pieces of a frame at most; 4K RGBA is 32 pieces of 1 MiB. */
#define MAX_PIECES 64
/* Pieces under this size cost more in hand-overs than they overlap. */
#define MIN_PIECE_BYTES (256 * 1024)
#define MAX_PIECE_BYTES (2 * 1024 * 1024)

typedef struct
{
  guint plane, first_row, n_rows;
} Piece;

struct _GstCudaVisionRowCopier
{
  cvcore_device *device;
  /* none with one thread: then the caller copies */
  GThread **helpers;
  guint n_helpers;
  /* downloads: one event per piece's DMA, made on first use */
  cvcore_event *dma_done[MAX_PIECES];

  /* The frame in hand; the caller's thread alone calls the core, the
   * helpers only copy rows. */
  GMutex lock;
  /* apart, so that a finished piece wakes the one thread that waits for
   * it, not every helper */
  GCond frame_begun;            /* helpers wait for a frame */
  GCond dma_ready;              /* download helpers wait for a piece's DMA */
  GCond piece_copied;           /* the caller waits for pieces and helpers */
  Piece pieces[MAX_PIECES];
  gboolean dma_done_seen[MAX_PIECES];
  gboolean copied[MAX_PIECES];
  guint n_pieces, next_piece, helpers_running;
  /* a new frame for the helpers when it changes */
  guint generation;
  gboolean upload, abandon, quit;
  const GstVideoFrame *host;
  guint8 *staging;
  const GstVideoInfo *layout;
};

guint
gst_cuda_vision_row_copier_default_threads (void)
{
  return CLAMP (g_get_num_processors () / 2, 1, 8);
}

/* Copies one piece's rows between the host frame and staging. */
static void
copy_piece (GstCudaVisionRowCopier * self, const Piece * piece)
{
  const GstVideoInfo *layout = self->layout;
  guint p = piece->plane;
  gsize row = gst_cuda_vision_plane_row_bytes (layout, p);
  gsize staged_stride = layout->stride[p];
  gsize host_stride = GST_VIDEO_FRAME_PLANE_STRIDE (self->host, p);
  guint8 *host = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (self->host, p) +
      piece->first_row * host_stride;
  guint8 *staged = self->staging + layout->offset[p] +
      piece->first_row * staged_stride;

  for (guint y = 0; y < piece->n_rows; y++) {
    if (self->upload)
      memcpy (staged + y * staged_stride, host + y * host_stride, row);
    else
      memcpy (host + y * host_stride, staged + y * staged_stride, row);
  }
}

/* The bytes of the device frame that a piece covers: its rows and the
 * padding between them, not after the last. */
static void
piece_range (GstCudaVisionRowCopier * self, const Piece * piece,
    gsize * offset, gsize * size)
{
  const GstVideoInfo *layout = self->layout;
  guint p = piece->plane;

  *offset = layout->offset[p] + (gsize) piece->first_row * layout->stride[p];
  *size = (gsize) (piece->n_rows - 1) * layout->stride[p] +
      gst_cuda_vision_plane_row_bytes (layout, p);
}

/* Under the lock. */
static void
help_with_frame (GstCudaVisionRowCopier * self)
{
  while (self->next_piece < self->n_pieces && !self->abandon) {
    guint i = self->next_piece++;

    while (!self->upload && !self->dma_done_seen[i] && !self->abandon)
      g_cond_wait (&self->dma_ready, &self->lock);
    if (self->abandon)
      break;
    g_mutex_unlock (&self->lock);
    copy_piece (self, &self->pieces[i]);
    g_mutex_lock (&self->lock);
    self->copied[i] = TRUE;
    g_cond_broadcast (&self->piece_copied);
  }
  self->helpers_running--;
  g_cond_broadcast (&self->piece_copied);
}

static gpointer
helper_main (gpointer data)
{
  GstCudaVisionRowCopier *self = data;
  /* made before any frame: a frame begun before this thread runs is
   * still its to help with */
  guint seen = 0;

  g_mutex_lock (&self->lock);
  while (TRUE) {
    while (self->generation == seen && !self->quit)
      g_cond_wait (&self->frame_begun, &self->lock);
    if (self->quit)
      break;
    seen = self->generation;
    help_with_frame (self);
  }
  g_mutex_unlock (&self->lock);
  return NULL;
}

/* Cuts the frame into pieces of whole rows, plane by plane: small enough
 * for the threads to share and the first DMA to start early. */
static void
cut_pieces (GstCudaVisionRowCopier * self, const GstVideoInfo * layout)
{
  /* with helpers, the caller does not copy */
  guint threads = MAX (self->n_helpers, 1);
  gsize target = CLAMP (layout->size / (4 * threads), MIN_PIECE_BYTES,
      MAX_PIECE_BYTES);

  do {
    self->n_pieces = 0;
    for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (layout); p++) {
      guint rows = gst_cuda_vision_plane_rows (layout, p);
      guint step = MAX (1, target / MAX (1, layout->stride[p]));

      for (guint y = 0; y < rows && self->n_pieces <= MAX_PIECES; y += step) {
        if (self->n_pieces < MAX_PIECES) {
          Piece *piece = &self->pieces[self->n_pieces];

          piece->plane = p;
          piece->first_row = y;
          piece->n_rows = MIN (step, rows - y);
        }
        self->n_pieces++;
      }
    }
    target *= 2;
  } while (self->n_pieces > MAX_PIECES);
  self->layout = layout;
}

/* Starts the helpers on the frame in hand, cut into pieces. */
static void
begin_frame (GstCudaVisionRowCopier * self, gboolean upload,
    const GstVideoFrame * host, guint8 * staging)
{
  g_mutex_lock (&self->lock);
  self->upload = upload;
  self->host = host;
  self->staging = staging;
  memset (self->dma_done_seen, 0, sizeof (self->dma_done_seen));
  memset (self->copied, 0, sizeof (self->copied));
  self->abandon = FALSE;
  self->next_piece = 0;
  self->helpers_running = self->n_helpers;
  self->generation++;
  g_cond_broadcast (&self->frame_begun);
  g_mutex_unlock (&self->lock);
}

/* Waits until piece @i is copied; with no helpers, copies it. */
static void
wait_copied (GstCudaVisionRowCopier * self, guint i)
{
  if (self->n_helpers == 0) {
    copy_piece (self, &self->pieces[i]);
    return;
  }
  g_mutex_lock (&self->lock);
  while (!self->copied[i])
    g_cond_wait (&self->piece_copied, &self->lock);
  g_mutex_unlock (&self->lock);
}

/* Waits until the helpers have copied every piece, or, after a failure,
 * abandoned what is left: then none touches the frame. */
static void
end_frame (GstCudaVisionRowCopier * self, cvcore_status status)
{
  g_mutex_lock (&self->lock);
  if (status != CVCORE_OK)
    self->abandon = TRUE;
  g_cond_broadcast (&self->dma_ready);
  while (self->helpers_running > 0)
    g_cond_wait (&self->piece_copied, &self->lock);
  g_mutex_unlock (&self->lock);
}

cvcore_status
gst_cuda_vision_row_copier_upload (GstCudaVisionRowCopier * self,
    cvcore_stream * stream, const GstVideoFrame * src, guint8 * staging,
    guint8 * device_frame, const GstVideoInfo * layout)
{
  cvcore_status status = CVCORE_OK;

  cut_pieces (self, layout);
  begin_frame (self, TRUE, src, staging);
  for (guint i = 0; i < self->n_pieces && status == CVCORE_OK; i++) {
    gsize offset, size;

    wait_copied (self, i);
    piece_range (self, &self->pieces[i], &offset, &size);
    status = cvcore_copy_async (stream, device_frame + offset,
        staging + offset, size, CVCORE_COPY_HOST_TO_DEVICE);
  }
  end_frame (self, status);
  return status;
}

cvcore_status
gst_cuda_vision_row_copier_download (GstCudaVisionRowCopier * self,
    cvcore_stream * stream, const guint8 * device_frame,
    const GstVideoInfo * layout, guint8 * staging, GstVideoFrame * dst)
{
  cvcore_status status = CVCORE_OK;

  /* all DMA first, so the copy engine never waits for the host */
  cut_pieces (self, layout);
  for (guint i = 0; i < self->n_pieces && status == CVCORE_OK; i++) {
    gsize offset, size;

    if (self->dma_done[i] == NULL)
      status = cvcore_event_new (self->device, false, &self->dma_done[i]);
    piece_range (self, &self->pieces[i], &offset, &size);
    if (status == CVCORE_OK)
      status = cvcore_copy_async (stream, staging + offset,
          device_frame + offset, size, CVCORE_COPY_DEVICE_TO_HOST);
    if (status == CVCORE_OK)
      status = cvcore_event_record (self->dma_done[i], stream);
  }
  if (status != CVCORE_OK) {
    /* what was queued may still write into staging */
    cvcore_stream_synchronize (stream);
    return status;
  }

  begin_frame (self, FALSE, dst, staging);
  for (guint i = 0; i < self->n_pieces && status == CVCORE_OK; i++) {
    status = cvcore_event_synchronize (self->dma_done[i]);
    if (status != CVCORE_OK)
      break;
    if (self->n_helpers == 0) {
      copy_piece (self, &self->pieces[i]);
      continue;
    }
    g_mutex_lock (&self->lock);
    self->dma_done_seen[i] = TRUE;
    g_cond_broadcast (&self->dma_ready);
    g_mutex_unlock (&self->lock);
  }
  end_frame (self, status);
  return status;
}

GstCudaVisionRowCopier *
gst_cuda_vision_row_copier_new (cvcore_device * device, guint n_threads)
{
  GstCudaVisionRowCopier *self = g_new0 (GstCudaVisionRowCopier, 1);
  GError *error = NULL;

  GST_DEBUG_CATEGORY_INIT (gst_cuda_vision_row_copier_debug,
      "cudavisionrowcopier", 0, "cudavision transfers through staging");
  self->device = device;
  g_mutex_init (&self->lock);
  g_cond_init (&self->frame_begun);
  g_cond_init (&self->dma_ready);
  g_cond_init (&self->piece_copied);
  if (n_threads == 0)
    n_threads = gst_cuda_vision_row_copier_default_threads ();
  if (n_threads > 1)
    self->helpers = g_new0 (GThread *, n_threads);
  for (guint i = 0; i < n_threads && self->helpers; i++) {
    self->helpers[i] = g_thread_try_new ("cudavision-rows", helper_main, self,
        &error);
    if (self->helpers[i] == NULL) {
      /* fewer helpers, or the caller copies alone: slower but right */
      GST_WARNING ("no thread for copying rows: %s", error->message);
      g_clear_error (&error);
      break;
    }
    self->n_helpers++;
  }
  GST_DEBUG ("copying rows with %u helper threads", self->n_helpers);
  return self;
}

void
gst_cuda_vision_row_copier_free (GstCudaVisionRowCopier * self)
{
  if (self == NULL)
    return;
  g_mutex_lock (&self->lock);
  self->quit = TRUE;
  g_cond_broadcast (&self->frame_begun);
  g_mutex_unlock (&self->lock);
  for (guint i = 0; i < self->n_helpers; i++)
    g_thread_join (self->helpers[i]);
  g_free (self->helpers);
  for (guint i = 0; i < MAX_PIECES; i++)
    cvcore_event_free (self->dma_done[i]);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->frame_begun);
  g_cond_clear (&self->dma_ready);
  g_cond_clear (&self->piece_copied);
  g_free (self);
}
