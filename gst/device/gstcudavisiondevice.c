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

/* GstCudaVisionDevice and its sharing through GstContext: see the
 * header. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudavisiondevice.h"
#include "gstcudavisioncudacontext.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_vision_device_debug);
#define GST_CAT_DEFAULT gst_cuda_vision_device_debug

struct _GstCudaVisionDevice
{
  GstObject parent;

  cvcore_device *core;
  cvcore_stream *transfer_stream;
  /* GstCudaContext of the core's context; it outlives the core */
  GstObject *cuda_context;
};

G_DEFINE_TYPE_WITH_CODE (GstCudaVisionDevice, gst_cuda_vision_device,
    GST_TYPE_OBJECT, GST_DEBUG_CATEGORY_INIT (gst_cuda_vision_device_debug,
        "cudavisiondevice", 0, "cudavision device and context sharing"));

static void
gst_cuda_vision_device_finalize (GObject * object)
{
  GstCudaVisionDevice *self = GST_CUDA_VISION_DEVICE (object);

  cvcore_stream_free (self->transfer_stream);
  cvcore_device_close (self->core);
  gst_clear_object (&self->cuda_context);

  G_OBJECT_CLASS (gst_cuda_vision_device_parent_class)->finalize (object);
}

static void
gst_cuda_vision_device_class_init (GstCudaVisionDeviceClass * klass)
{
  G_OBJECT_CLASS (klass)->finalize = gst_cuda_vision_device_finalize;
}

static void
gst_cuda_vision_device_init (GstCudaVisionDevice * self)
{
}

gboolean
gst_cuda_vision_backend_from_env (cvcore_backend * backend, GError ** error)
{
  const gchar *name = g_getenv (GST_CUDA_VISION_BACKEND_ENV);

  if (cvcore_backend_from_string (name, backend))
    return TRUE;
  g_set_error (error, GST_LIBRARY_ERROR, GST_LIBRARY_ERROR_SETTINGS,
      "%s='%s' names no backend: use 'cuda' or 'cpu'",
      GST_CUDA_VISION_BACKEND_ENV, name);
  return FALSE;
}

static void
set_open_error (GError ** error, cvcore_status status, cvcore_backend backend,
    gint device_id)
{
  GQuark domain = GST_LIBRARY_ERROR;
  gint code = GST_LIBRARY_ERROR_INIT;

  switch (status) {
    case CVCORE_ERROR_NO_DEVICE:
    case CVCORE_ERROR_INVALID_DEVICE:
      domain = GST_RESOURCE_ERROR;
      code = GST_RESOURCE_ERROR_NOT_FOUND;
      break;
    case CVCORE_ERROR_OUT_OF_MEMORY:
      domain = GST_RESOURCE_ERROR;
      code = GST_RESOURCE_ERROR_NO_SPACE_LEFT;
      break;
    default:
      break;
  }
  g_set_error (error, domain, code, "Cannot open %s device %d: %s (%s)",
      cvcore_backend_name (backend), device_id, cvcore_status_name (status),
      cvcore_last_error ());
}

/* One device per CUDA context: elements that take the same
 * "gst.cuda.context" one by one work with one device, whose streams and
 * events belong together. The context keeps a weak reference to it (the
 * device holds the context). */
static GRecMutex devices_of_contexts_lock;

static GQuark device_of_context_quark (void);
G_DEFINE_QUARK (GstCudaVisionDeviceOfContext, device_of_context);

static void
free_weak_ref (gpointer data)
{
  g_weak_ref_clear (data);
  g_free (data);
}

/* Under devices_of_contexts_lock. */
static void
remember_device (GstObject * cuda_context, GstCudaVisionDevice * device)
{
  GWeakRef *ref = g_new0 (GWeakRef, 1);

  g_weak_ref_init (ref, device);
  g_object_set_qdata_full (G_OBJECT (cuda_context),
      device_of_context_quark (), ref, free_weak_ref);
}

/* Takes @core, and @cuda_context when given. */
static GstCudaVisionDevice *
device_new (cvcore_device * core, GstObject * cuda_context, GError ** error)
{
  GstCudaVisionDevice *self;
  cvcore_stream *stream;
  cvcore_status status;

  status = cvcore_stream_new (core, &stream);
  if (status != CVCORE_OK) {
    set_open_error (error, status, cvcore_device_backend (core),
        cvcore_device_id (core));
    cvcore_device_close (core);
    gst_clear_object (&cuda_context);
    return NULL;
  }

  self = g_object_new (GST_TYPE_CUDA_VISION_DEVICE, NULL);
  gst_object_ref_sink (self);
  self->core = core;
  self->transfer_stream = stream;
  self->cuda_context = cuda_context ? cuda_context :
      gst_cuda_vision_cuda_context_wrap (core);
  if (self->cuda_context) {
    g_rec_mutex_lock (&devices_of_contexts_lock);
    remember_device (self->cuda_context, self);
    g_rec_mutex_unlock (&devices_of_contexts_lock);
  }
  GST_INFO_OBJECT (self, "opened %s device %d: %s%s",
      cvcore_backend_name (cvcore_device_backend (core)),
      cvcore_device_id (core), cvcore_device_name (core),
      cuda_context ? ", in a shared CUDA context" : "");
  return self;
}

/**
 * gst_cuda_vision_device_new:
 * @device_id: index of the device in the selected backend
 *
 * Opens a device of the backend that GST_CUDAVISION_BACKEND selects, in
 * the device's primary CUDA context on the CUDA backend.
 *
 * Returns: (transfer full) (nullable): the device, or %NULL with @error set
 * to a message that names the cause (no driver, no device, id out of
 * range, or a build without CUDA).
 */
GstCudaVisionDevice *
gst_cuda_vision_device_new (gint device_id, GError ** error)
{
  cvcore_backend backend;
  cvcore_device *core;
  cvcore_status status;

  if (!gst_cuda_vision_backend_from_env (&backend, error))
    return NULL;

  status = cvcore_device_open (backend, device_id, &core);
  if (status != CVCORE_OK) {
    set_open_error (error, status, backend, device_id);
    return NULL;
  }
  return device_new (core, NULL, error);
}

GstCudaVisionDevice *
gst_cuda_vision_device_new_for_cuda_context (GstObject * cuda_context,
    GError ** error)
{
  GWeakRef *ref;
  GstCudaVisionDevice *device = NULL;
  cvcore_device *core;
  cvcore_status status;

  /* held while the device is made, so that two elements that adopt the
   * context at once get one device */
  g_rec_mutex_lock (&devices_of_contexts_lock);
  ref = g_object_get_qdata (G_OBJECT (cuda_context),
      device_of_context_quark ());
  if (ref)
    device = g_weak_ref_get (ref);
  if (device == NULL) {
    status = cvcore_device_open_context
        (gst_cuda_vision_cuda_context_handle (cuda_context), &core);
    if (status == CVCORE_OK)
      device = device_new (core, gst_object_ref (cuda_context), error);
    else
      set_open_error (error, status, CVCORE_BACKEND_CUDA, -1);
  }
  g_rec_mutex_unlock (&devices_of_contexts_lock);
  return device;
}

GstObject *
gst_cuda_vision_device_get_cuda_context (GstCudaVisionDevice * self)
{
  return self->cuda_context;
}

cvcore_device *
gst_cuda_vision_device_get_core (GstCudaVisionDevice * self)
{
  return self->core;
}

gint
gst_cuda_vision_device_get_id (GstCudaVisionDevice * self)
{
  return cvcore_device_id (self->core);
}

cvcore_backend
gst_cuda_vision_device_get_backend (GstCudaVisionDevice * self)
{
  return cvcore_device_backend (self->core);
}

gboolean
gst_cuda_vision_device_transfer (GstCudaVisionDevice * self, void *dst,
    const void *src, gsize size, cvcore_copy_kind kind)
{
  if (cvcore_copy_async (self->transfer_stream, dst, src, size, kind)
      != CVCORE_OK
      || cvcore_stream_synchronize (self->transfer_stream) != CVCORE_OK) {
    GST_ERROR_OBJECT (self, "transfer of %" G_GSIZE_FORMAT " bytes failed: %s",
        size, cvcore_last_error ());
    return FALSE;
  }
  return TRUE;
}

GParamSpec *
gst_cuda_vision_device_id_param_spec (gint default_id)
{
  return g_param_spec_int ("device-id", "Device ID",
      "Index of the device to use, shared with neighbours of the same "
      "device-id (-1: the neighbours' device, or 0; frames from another "
      "device are copied)", -1, G_MAXINT, default_id, G_PARAM_READWRITE |
      G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY);
}

/* --- context sharing --------------------------------------------------- */

static gboolean
pad_peer_query (const GValue * item, GValue * value, gpointer user_data)
{
  GstPad *pad = g_value_get_object (item);

  if (gst_pad_peer_query (pad, GST_QUERY_CAST (user_data))) {
    g_value_set_boolean (value, TRUE);
    return FALSE;
  }
  return TRUE;
}

static gboolean
run_context_query (GstElement * element, GstQuery * query,
    GstPadDirection direction)
{
  GstIterator *it = direction == GST_PAD_SRC ?
      gst_element_iterate_src_pads (element) :
      gst_element_iterate_sink_pads (element);
  GValue found = G_VALUE_INIT;
  gboolean ret;

  g_value_init (&found, G_TYPE_BOOLEAN);
  while (gst_iterator_fold (it, pad_peer_query, &found, query)
      == GST_ITERATOR_RESYNC)
    gst_iterator_resync (it);
  ret = g_value_get_boolean (&found);
  g_value_unset (&found);
  gst_iterator_free (it);
  return ret;
}

static GstContext *
context_for_device (GstCudaVisionDevice * device, GstContext * base)
{
  GstContext *context = base ? gst_context_copy (base) :
      gst_context_new (GST_CUDA_VISION_DEVICE_CONTEXT_TYPE, TRUE);
  GstStructure *s = gst_context_writable_structure (context);

  gst_structure_set (s, "device", GST_TYPE_CUDA_VISION_DEVICE, device,
      "device-id", G_TYPE_INT, gst_cuda_vision_device_get_id (device),
      "backend", G_TYPE_STRING,
      cvcore_backend_name (gst_cuda_vision_device_get_backend (device)), NULL);
  return context;
}

/* Asks neighbours, then the application and bins, for a context of
 * @type; the answers come back through the element's set_context. */
static void
find_shared_context (GstElement * element, const gchar * type)
{
  GstQuery *query = gst_query_new_context (type);
  GstContext *context = NULL;

  if (run_context_query (element, query, GST_PAD_SRC)
      || run_context_query (element, query, GST_PAD_SINK)) {
    gst_query_parse_context (query, &context);
    if (context) {
      GST_DEBUG_OBJECT (element, "a neighbour shared a %s", type);
      gst_element_set_context (element, context);
    }
  }
  gst_query_unref (query);
  if (context == NULL)
    gst_element_post_message (element,
        gst_message_new_need_context (GST_OBJECT_CAST (element), type));
}

static void
post_have_context (GstElement * element, GstContext * context)
{
  gst_element_post_message (element,
      gst_message_new_have_context (GST_OBJECT_CAST (element), context));
}

static gboolean
backend_is (cvcore_backend wanted)
{
  cvcore_backend backend;

  return gst_cuda_vision_backend_from_env (&backend, NULL)
      && backend == wanted;
}

/* Set on an element while it looks for a device to share: the neighbours
 * it asks, which may open theirs to answer, do not ask it back. */
static GQuark searching_quark (void);
G_DEFINE_QUARK (GstCudaVisionSearchingDevice, searching);

static gboolean
is_searching (GstElement * element)
{
  return g_object_get_qdata (G_OBJECT (element), searching_quark ()) != NULL;
}

/* Ours first, then a CUDA context that nvcodec's elements or the
 * application share: whichever element starts first, all work in one
 * context. */
static void
find_device_to_share (GstElement * element, GstCudaVisionDevice ** device)
{
  g_object_set_qdata (G_OBJECT (element), searching_quark (),
      GINT_TO_POINTER (1));
  find_shared_context (element, GST_CUDA_VISION_DEVICE_CONTEXT_TYPE);
  if (*device == NULL && gst_cuda_vision_interop_built ()
      && backend_is (CVCORE_BACKEND_CUDA))
    find_shared_context (element, GST_CUDA_VISION_CUDA_CONTEXT_TYPE);
  g_object_set_qdata (G_OBJECT (element), searching_quark (), NULL);
}

gboolean
gst_cuda_vision_ensure_device (GstElement * element, gint device_id,
    GstCudaVisionDevice ** device)
{
  GstCudaVisionDevice *created;
  GstObject *cuda_context;
  GstContext *context;
  GError *error = NULL;

  if (*device)
    return TRUE;
  find_device_to_share (element, device);
  if (*device)
    return TRUE;

  created = gst_cuda_vision_device_new (MAX (device_id, 0), &error);
  if (created == NULL) {
    gst_element_message_full (element, GST_MESSAGE_ERROR, error->domain,
        error->code, g_strdup (error->message),
        g_strdup_printf ("%s=%s, device-id=%d", GST_CUDA_VISION_BACKEND_ENV,
            g_getenv (GST_CUDA_VISION_BACKEND_ENV) ?
            g_getenv (GST_CUDA_VISION_BACKEND_ENV) : "(unset: cuda)",
            device_id), __FILE__, GST_FUNCTION, __LINE__);
    g_error_free (error);
    return FALSE;
  }

  context = context_for_device (created, NULL);
  gst_element_set_context (element, context);
  if (*device == NULL) {
    /* The element's set_context did not take it (it should): keep ours. */
    *device = gst_object_ref (created);
  }
  post_have_context (element, context);
  cuda_context = gst_cuda_vision_device_get_cuda_context (created);
  if (cuda_context)
    post_have_context (element,
        gst_cuda_vision_cuda_context_new_context (cuda_context));
  gst_object_unref (created);
  return TRUE;
}

/* A "gst.cuda.context" of @device_id becomes the element's device when it
 * has none yet. */
static void
adopt_cuda_context (GstElement * element, GstContext * context,
    gint device_id, GstCudaVisionDevice ** device)
{
  GstObject *cuda_context;
  GError *error = NULL;

  if (*device || !backend_is (CVCORE_BACKEND_CUDA))
    return;
  cuda_context = gst_cuda_vision_cuda_context_from_context (element, context,
      device_id);
  if (cuda_context == NULL)
    return;
  *device = gst_cuda_vision_device_new_for_cuda_context (cuda_context, &error);
  if (*device)
    GST_DEBUG_OBJECT (element, "working in a shared CUDA context");
  else {
    GST_WARNING_OBJECT (element, "cannot work in the shared CUDA context: %s",
        error->message);
    g_error_free (error);
  }
  gst_object_unref (cuda_context);
}

gboolean
gst_cuda_vision_handle_set_context (GstElement * element,
    GstContext * context, gint device_id, GstCudaVisionDevice ** device)
{
  const GstStructure *s;
  GstCudaVisionDevice *other = NULL;

  if (context == NULL)
    return FALSE;
  if (gst_context_has_context_type (context, GST_CUDA_VISION_CUDA_CONTEXT_TYPE)) {
    adopt_cuda_context (element, context, device_id, device);
    return TRUE;
  }
  if (!gst_context_has_context_type (context,
          GST_CUDA_VISION_DEVICE_CONTEXT_TYPE))
    return FALSE;

  s = gst_context_get_structure (context);
  if (!gst_structure_get (s, "device", GST_TYPE_CUDA_VISION_DEVICE, &other,
          NULL) || other == NULL)
    return FALSE;

  /* automatic (-1): the first device shared with it, never a second one
   * once the element works on one */
  if ((gst_cuda_vision_device_get_id (other) == device_id
          || (device_id < 0 && *device == NULL))
      && backend_is (gst_cuda_vision_device_get_backend (other))) {
    GST_DEBUG_OBJECT (element, "using shared device %" GST_PTR_FORMAT, other);
    gst_object_replace ((GstObject **) device, GST_OBJECT_CAST (other));
  } else {
    GST_DEBUG_OBJECT (element, "ignoring shared device %d, want %d",
        gst_cuda_vision_device_get_id (other), device_id);
  }
  gst_object_unref (other);
  return TRUE;
}

gboolean
gst_cuda_vision_handle_context_query (GstElement * element, GstQuery * query,
    GstCudaVisionDevice * device)
{
  const gchar *type;
  GstContext *old = NULL, *context;

  if (GST_QUERY_TYPE (query) != GST_QUERY_CONTEXT || device == NULL
      || !gst_query_parse_context_type (query, &type))
    return FALSE;
  if (g_strcmp0 (type, GST_CUDA_VISION_CUDA_CONTEXT_TYPE) == 0)
    return gst_cuda_vision_cuda_context_answer_query (element, query,
        gst_cuda_vision_device_get_cuda_context (device));
  if (g_strcmp0 (type, GST_CUDA_VISION_DEVICE_CONTEXT_TYPE) != 0)
    return FALSE;

  gst_query_parse_context (query, &old);
  context = context_for_device (device, old);
  gst_query_set_context (query, context);
  gst_context_unref (context);
  GST_DEBUG_OBJECT (element, "answered a device context query");
  return TRUE;
}

gboolean
gst_cuda_vision_answer_context_query (GstElement * element, GstQuery * query,
    GstPadDirection from, gint device_id, GstCudaVisionDevice ** device)
{
  GstCudaVisionDevice *current = NULL;
  const gchar *type;
  gboolean ret;

  if (GST_QUERY_TYPE (query) != GST_QUERY_CONTEXT
      || !gst_query_parse_context_type (query, &type)
      || (g_strcmp0 (type, GST_CUDA_VISION_DEVICE_CONTEXT_TYPE) != 0
          && g_strcmp0 (type, GST_CUDA_VISION_CUDA_CONTEXT_TYPE) != 0))
    return FALSE;
  GST_OBJECT_LOCK (element);
  if (*device)
    current = gst_object_ref (*device);
  GST_OBJECT_UNLOCK (element);
  if (current == NULL && is_searching (element))
    return FALSE;
  if (current == NULL && device_id < 0) {
    /* an automatic element without a device passes the question on,
     * away from the asker: a chain of them finds the device at its end */
    return run_context_query (element, query,
        from == GST_PAD_SRC ? GST_PAD_SINK : GST_PAD_SRC);
  }
  if (current == NULL) {
    /* elements start from the sink end: one that has not yet, asked by a
     * neighbour, opens its device now (start() then finds it open) */
    if (!gst_cuda_vision_ensure_device (element, device_id, device))
      return FALSE;
    GST_OBJECT_LOCK (element);
    if (*device)
      current = gst_object_ref (*device);
    GST_OBJECT_UNLOCK (element);
  }
  ret = gst_cuda_vision_handle_context_query (element, query, current);
  gst_clear_object (&current);
  return ret;
}
