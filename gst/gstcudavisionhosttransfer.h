/* What cudaupload and cudadownload share for frames in ordinary system
 * memory: their two properties, and the row copier they configure. */
#ifndef __GST_CUDA_VISION_HOST_TRANSFER_H__
#define __GST_CUDA_VISION_HOST_TRANSFER_H__

#include <gst/gst.h>
#include "gstcudavisionrowcopier.h"

G_BEGIN_DECLS typedef struct
{
  /* properties, under the element's object lock */
  guint copy_threads;
  gboolean pin_recycled;

  /* streaming thread only */
  GstCudaVisionRowCopier *copier;
  guint copier_threads;
} GstCudaVisionHostTransfer;

void gst_cuda_vision_host_transfer_init (GstCudaVisionHostTransfer * self);
/* Installs "copy-threads" and "pin-recycled" as @first_prop and the next. */
void gst_cuda_vision_host_transfer_install_properties (GObjectClass * klass,
    guint first_prop);
/* FALSE when @prop_id is none of the two. */
gboolean gst_cuda_vision_host_transfer_set_property (GObject * object,
    GstCudaVisionHostTransfer * self, guint first_prop, guint prop_id,
    const GValue * value);
gboolean gst_cuda_vision_host_transfer_get_property (GObject * object,
    GstCudaVisionHostTransfer * self, guint first_prop, guint prop_id,
    GValue * value);

gboolean gst_cuda_vision_host_transfer_pins_recycled (GObject * object,
    GstCudaVisionHostTransfer * self);
/* The copier with the threads the property asks for now. */
GstCudaVisionRowCopier *gst_cuda_vision_host_transfer_copier (GObject *
    object, GstCudaVisionHostTransfer * self, cvcore_device * device);
void gst_cuda_vision_host_transfer_clear (GstCudaVisionHostTransfer * self);

G_END_DECLS

#endif /* __GST_CUDA_VISION_HOST_TRANSFER_H__ */
