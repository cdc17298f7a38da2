#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudavisionhosttransfer.h"

#define MAX_COPY_THREADS 32

enum
{
  OFFSET_COPY_THREADS,
  OFFSET_PIN_RECYCLED,
};

void
gst_cuda_vision_host_transfer_init (GstCudaVisionHostTransfer * self)
{
  self->copy_threads = 0;
  self->pin_recycled = TRUE;
}

void
gst_cuda_vision_host_transfer_install_properties (GObjectClass * klass,
    guint first_prop)
{
  /**
   * GstCudaVisionUpload:copy-threads:
   *
   * Frames in ordinary memory that cannot be page-locked go through
   * page-locked staging; this many threads copy their rows there (or back
   * out, for downloads) while the DMA of copied rows runs. 0 picks half
   * the processors, 1 to 8. Applies from the next frame.
   */
  g_object_class_install_property (klass, first_prop + OFFSET_COPY_THREADS,
      g_param_spec_uint ("copy-threads", "Copy threads",
          "Threads that copy rows of frames in ordinary memory to or from "
          "page-locked staging (0: half the processors, 1 to 8)",
          0, MAX_COPY_THREADS, 0,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));
  /**
   * GstCudaVisionUpload:pin-recycled:
   *
   * Page-locks ordinary memory that comes a second time, such as the
   * buffers of a pool that upstream (or downstream, for downloads)
   * recycles: registering costs about a millisecond per 8 MB once, after
   * which every copy of that memory is an asynchronous DMA at the copy
   * engine's speed. Memory seen once is never registered. Registered
   * memory is unregistered when it is freed.
   */
  g_object_class_install_property (klass, first_prop + OFFSET_PIN_RECYCLED,
      g_param_spec_boolean ("pin-recycled", "Pin recycled memory",
          "Page-lock ordinary memory that comes again (a pool's buffers), "
          "so that its copies run as DMA at full speed", TRUE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));
}

gboolean
gst_cuda_vision_host_transfer_set_property (GObject * object,
    GstCudaVisionHostTransfer * self, guint first_prop, guint prop_id,
    const GValue * value)
{
  gboolean known = TRUE;

  GST_OBJECT_LOCK (object);
  if (prop_id == first_prop + OFFSET_COPY_THREADS)
    self->copy_threads = g_value_get_uint (value);
  else if (prop_id == first_prop + OFFSET_PIN_RECYCLED)
    self->pin_recycled = g_value_get_boolean (value);
  else
    known = FALSE;
  GST_OBJECT_UNLOCK (object);
  return known;
}

gboolean
gst_cuda_vision_host_transfer_get_property (GObject * object,
    GstCudaVisionHostTransfer * self, guint first_prop, guint prop_id,
    GValue * value)
{
  gboolean known = TRUE;

  GST_OBJECT_LOCK (object);
  if (prop_id == first_prop + OFFSET_COPY_THREADS)
    g_value_set_uint (value, self->copy_threads);
  else if (prop_id == first_prop + OFFSET_PIN_RECYCLED)
    g_value_set_boolean (value, self->pin_recycled);
  else
    known = FALSE;
  GST_OBJECT_UNLOCK (object);
  return known;
}

gboolean
gst_cuda_vision_host_transfer_pins_recycled (GObject * object,
    GstCudaVisionHostTransfer * self)
{
  gboolean pin;

  GST_OBJECT_LOCK (object);
  pin = self->pin_recycled;
  GST_OBJECT_UNLOCK (object);
  return pin;
}

GstCudaVisionRowCopier *
gst_cuda_vision_host_transfer_copier (GObject * object,
    GstCudaVisionHostTransfer * self, cvcore_device * device)
{
  guint threads;

  GST_OBJECT_LOCK (object);
  threads = self->copy_threads ? self->copy_threads :
      gst_cuda_vision_row_copier_default_threads ();
  GST_OBJECT_UNLOCK (object);
  if (self->copier && self->copier_threads != threads)
    g_clear_pointer (&self->copier, gst_cuda_vision_row_copier_free);
  if (self->copier == NULL) {
    self->copier = gst_cuda_vision_row_copier_new (device, threads);
    self->copier_threads = threads;
  }
  return self->copier;
}

void
gst_cuda_vision_host_transfer_clear (GstCudaVisionHostTransfer * self)
{
  g_clear_pointer (&self->copier, gst_cuda_vision_row_copier_free);
}
