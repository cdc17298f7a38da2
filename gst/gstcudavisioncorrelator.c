/* Device buffers and messages of the tile-matching elements. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudavisioncorrelator.h"
#include "gstcudavisionutils.h"

#include <string.h>

void
gst_cuda_vision_correlator_free (GstCudaVisionCorrelator * c,
    cvcore_stream * stream)
{
  if (c->core == NULL)
    return;
  /* Queued frames may still use them. */
  if (stream)
    cvcore_stream_synchronize (stream);
  for (gint i = 0; i < 2; i++)
    if (c->coefficients[i])
      cvcore_device_free (c->core, c->coefficients[i]);
  if (c->matches)
    cvcore_device_free (c->core, c->matches);
  if (c->host_matches)
    cvcore_host_free (c->core, c->host_matches);
  c->coefficients[0] = c->coefficients[1] = NULL;
  c->matches = c->host_matches = NULL;
  c->core = NULL;
}

void
gst_cuda_vision_correlator_set_info (GstCudaVisionCorrelator * c,
    const GstVideoInfo * info, cvcore_stream * stream)
{
  const guint full = GST_VIDEO_INFO_COMP_DEPTH (info, 0) > 8 ? 65535 : 255;

  gst_cuda_vision_correlator_free (c, stream);
  c->tiles_x = cvcore_clt_tiles (GST_VIDEO_INFO_WIDTH (info));
  c->tiles_y = cvcore_clt_tiles (GST_VIDEO_INFO_HEIGHT (info));
  c->full_scale = full;
  memset (c->colour, 0, sizeof (c->colour));
  if (GST_VIDEO_INFO_IS_RGB (info)) {
    /* the green channel; green vectors, opaque */
    c->channel = GST_VIDEO_INFO_COMP_POFFSET (info, 1);
    c->colour[c->channel] = full;
    c->colour[3] = full;
  } else {
    c->channel = 0;
    c->colour[0] = full;
  }
}

cvcore_status
gst_cuda_vision_correlator_ensure (GstCudaVisionCorrelator * c,
    cvcore_device * core)
{
  const gsize tiles = (gsize) c->tiles_x * c->tiles_y;
  cvcore_status status = CVCORE_OK;

  if (c->core)
    return CVCORE_OK;
  c->core = core;
  for (gint i = 0; i < 2 && status == CVCORE_OK; i++)
    status = cvcore_device_alloc (core, tiles * CVCORE_CLT_COEFFICIENTS *
        sizeof (gfloat), (void **) &c->coefficients[i]);
  if (status == CVCORE_OK)
    status = cvcore_device_alloc (core, tiles * sizeof (cvcore_clt_match),
        (void **) &c->matches);
  if (status == CVCORE_OK)
    status = cvcore_host_alloc (core, tiles * sizeof (cvcore_clt_match),
        (void **) &c->host_matches);
  if (status != CVCORE_OK)
    gst_cuda_vision_correlator_free (c, NULL);
  return status;
}

void
gst_cuda_vision_correlator_image (GstCudaVisionCorrelator * c,
    const GstVideoFrame * frame, cvcore_image * image)
{
  gst_cuda_vision_frame_plane (frame, 0, c->full_scale > 255.0 ?
      CVCORE_SAMPLE_U16 : CVCORE_SAMPLE_U8, image);
  if (GST_VIDEO_INFO_IS_YUV (&frame->info))
    image->channels = 1;
}

cvcore_status
gst_cuda_vision_correlator_read (GstCudaVisionCorrelator * c,
    cvcore_stream * stream)
{
  cvcore_status status = cvcore_copy_async (stream, c->host_matches,
      c->matches, (gsize) c->tiles_x * c->tiles_y * sizeof (cvcore_clt_match),
      CVCORE_COPY_DEVICE_TO_HOST);

  return status == CVCORE_OK ? cvcore_stream_synchronize (stream) : status;
}

GstMessage *
gst_cuda_vision_correlator_message (GstCudaVisionCorrelator * c,
    GstObject * src, const gchar * name, GstClockTime timestamp,
    gdouble min_confidence)
{
  const gsize tiles = (gsize) c->tiles_x * c->tiles_y;
  GBytes *bytes = g_bytes_new (c->host_matches,
      tiles * sizeof (cvcore_clt_match));
  gdouble sx = 0.0, sy = 0.0;
  guint confident = 0;
  GstStructure *s;

  for (gsize t = 0; t < tiles; t++)
    if (c->host_matches[t].confidence >= min_confidence) {
      sx += c->host_matches[t].dx;
      sy += c->host_matches[t].dy;
      confident++;
    }
  s = gst_structure_new (name,
      "timestamp", G_TYPE_UINT64, timestamp,
      "tiles-x", G_TYPE_UINT, (guint) c->tiles_x,
      "tiles-y", G_TYPE_UINT, (guint) c->tiles_y,
      "tile-stride", G_TYPE_UINT, (guint) CVCORE_CLT_STRIDE,
      "confident-tiles", G_TYPE_UINT, confident,
      "mean-dx", G_TYPE_DOUBLE, confident ? sx / confident : 0.0,
      "mean-dy", G_TYPE_DOUBLE, confident ? sy / confident : 0.0,
      "matches", G_TYPE_BYTES, bytes, NULL);
  g_bytes_unref (bytes);
  return gst_message_new_element (src, s);
}
