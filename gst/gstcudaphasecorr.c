/**
 * SECTION:element-cudaphasecorr
 * @title: cudaphasecorr
 *
 * Tile motion (optical flow) of video in cudavision device memory by
 * phase correlation in the complex lapped transform domain: every 16x16
 * tile (stride 8) of each frame's luminance is matched against the same
 * tile of the previous frame, giving a motion vector (dx, dy) with
 * sub-pixel precision and a confidence per tile.
 *
 * The frames pass through unchanged, each (from the second on) carrying a
 * #GstCudaVisionCorrelationMeta with the tile grid (header
 * gstcudavisioncorrelationmeta.h, usable without linking anything). With
 * `post-messages=true` the element also posts an element message per frame,
 * `cudaphasecorr`, with fields `timestamp`, `tiles-x`, `tiles-y`,
 * `tile-stride`, `confident-tiles`, `mean-dx`, `mean-dy` (over tiles of at
 * least `min-confidence`) and `matches`, a #GBytes of tiles_y x tiles_x
 * float triples (dx, dy, confidence). With `draw=true` the vectors of
 * confident tiles are drawn onto the frame, `draw-scale` times their
 * length, from each tile's centre.
 *
 * Only the matches come back from the GPU. The luminance is the green
 * channel of RGB formats, the luma plane of I420 and NV12. Motions up to
 * `search-radius` pixels per frame are found; a flush or a discontinuity
 * starts over (the next frame has no previous one).
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 v4l2src ! videoconvert ! video/x-raw,format=NV12 ! cudaupload ! cudaphasecorr draw=true draw-scale=6 ! cudadownload ! videoconvert ! autovideosink
 * gst-launch-1.0 -m videotestsrc pattern=ball ! video/x-raw,format=GRAY8 ! cudaupload ! cudaphasecorr post-messages=true ! fakesink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaphasecorr.h"
#include "gstcudavisioncorrelationmetaimpl.h"
#include "gstcudavisioncorrelator.h"
#include "gstcudavisionutils.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_phase_corr_debug);
#define GST_CAT_DEFAULT gst_cuda_phase_corr_debug

#define PHASE_CORR_FORMATS \
    "{ GRAY8, GRAY16_LE, RGBA, BGRA, RGBx, BGRx, I420, NV12 }"

G_STATIC_ASSERT (sizeof (GstCudaVisionTileMatch) == sizeof (cvcore_clt_match));

enum
{
  PROP_0,
  PROP_SEARCH_RADIUS,
  PROP_CORRELATOR,              /* first of the shared matching properties */
};

struct _GstCudaPhaseCorr
{
  GstCudaVisionFilter parent;

  /* properties, under the object lock */
  GstCudaVisionCorrelatorSettings settings;

  /* streaming thread only; the coefficients are the previous frame's and
   * this one's */
  GstCudaVisionCorrelator corr;
  gint previous;                /* index of the previous frame's, or -1 */
  /* corr.host_matches hold this frame's matches: attach them (the mapped
   * frame keeps the buffer from being writable until then) */
  gboolean matched;
  gboolean post;
  gdouble post_min_confidence;
};

#define BASE(self) GST_CUDA_VISION_BASE_TRANSFORM (self)

G_DEFINE_TYPE_WITH_CODE (GstCudaPhaseCorr, gst_cuda_phase_corr,
    GST_TYPE_CUDA_VISION_FILTER,
    GST_DEBUG_CATEGORY_INIT (gst_cuda_phase_corr_debug, "cudaphasecorr", 0,
        "cudavision phase correlation"));

static void
gst_cuda_phase_corr_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaPhaseCorr *self = GST_CUDA_PHASE_CORR (object);

  GST_OBJECT_LOCK (self);
  if (prop_id == PROP_SEARCH_RADIUS)
    self->settings.params.search_radius = g_value_get_int (value);
  else if (!gst_cuda_vision_correlator_set_property (&self->settings,
          PROP_CORRELATOR, prop_id, value))
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_phase_corr_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCudaPhaseCorr *self = GST_CUDA_PHASE_CORR (object);

  GST_OBJECT_LOCK (self);
  if (prop_id == PROP_SEARCH_RADIUS)
    g_value_set_int (value, self->settings.params.search_radius);
  else if (!gst_cuda_vision_correlator_get_property (&self->settings,
          PROP_CORRELATOR, prop_id, value))
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  GST_OBJECT_UNLOCK (self);
}

static cvcore_stream *
stream_of (GstCudaPhaseCorr * self)
{
  return gst_cuda_vision_base_transform_get_stream (BASE (self));
}

static gboolean
gst_cuda_phase_corr_set_info (GstCudaVisionBaseTransform * base,
    GstCaps * incaps, GstVideoInfo * in_info, GstCaps * outcaps,
    GstVideoInfo * out_info)
{
  GstCudaPhaseCorr *self = GST_CUDA_PHASE_CORR (base);

  gst_cuda_vision_correlator_set_info (&self->corr, in_info, stream_of (self));
  self->previous = -1;
  /* the frames pass through; drawing writes into them */
  gst_base_transform_set_in_place (GST_BASE_TRANSFORM (self), TRUE);
  return TRUE;
}

static GstFlowReturn
gst_cuda_phase_corr_process_ip (GstCudaVisionFilter * filter,
    cvcore_stream * stream, GstVideoFrame * frame)
{
  GstCudaPhaseCorr *self = GST_CUDA_PHASE_CORR (filter);
  GstCudaVisionCorrelatorSettings settings;
  cvcore_clt_corr_params params;
  cvcore_image image;
  gint current;

  GST_OBJECT_LOCK (self);
  settings = self->settings;
  GST_OBJECT_UNLOCK (self);
  params = settings.params;
  params.full_scale = self->corr.full_scale;
  if (gst_cuda_vision_correlator_ensure (&self->corr,
          gst_cuda_vision_device_get_core
          (gst_cuda_vision_base_transform_get_device (BASE (self)))) !=
      CVCORE_OK) {
    GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
        ("Cannot allocate phase correlation buffers"),
        ("%s", cvcore_last_error ()));
    return GST_FLOW_ERROR;
  }
  if (GST_BUFFER_FLAG_IS_SET (frame->buffer, GST_BUFFER_FLAG_DISCONT))
    self->previous = -1;

  gst_cuda_vision_correlator_image (&self->corr, frame, &image);
  current = self->previous == 0 ? 1 : 0;
  self->matched = FALSE;
  if (self->previous >= 0
      && cvcore_clt_correlate (stream,
          self->corr.coefficients[self->previous], &image, self->corr.channel,
          &params, self->corr.matches) != CVCORE_OK)
    return gst_cuda_vision_base_transform_core_error (BASE (self),
        "Phase correlation failed");
  /* before any drawing changes the frame */
  if (cvcore_clt_forward (stream, &image, self->corr.channel, 0, 0,
          self->corr.coefficients[current]) != CVCORE_OK)
    return gst_cuda_vision_base_transform_core_error (BASE (self),
        "Lapped transform failed");
  if (self->previous >= 0) {
    if ((settings.draw && cvcore_clt_draw_matches (stream, &image,
                self->corr.matches, settings.draw_scale,
                settings.min_confidence, self->corr.colour) != CVCORE_OK)
        || gst_cuda_vision_correlator_read (&self->corr, stream) != CVCORE_OK)
      return gst_cuda_vision_base_transform_core_error (BASE (self),
          "Reading the matches back failed");
    self->matched = TRUE;
    self->post = settings.post_messages;
    self->post_min_confidence = settings.min_confidence;
  }
  self->previous = current;
  return GST_FLOW_OK;
}

static GstFlowReturn
gst_cuda_phase_corr_transform_ip (GstBaseTransform * trans, GstBuffer * buf)
{
  GstCudaPhaseCorr *self = GST_CUDA_PHASE_CORR (trans);
  GstFlowReturn ret =
      GST_BASE_TRANSFORM_CLASS (gst_cuda_phase_corr_parent_class)
      ->transform_ip (trans, buf);

  if (ret == GST_FLOW_OK && self->matched) {
    gst_buffer_add_cuda_vision_correlation_meta (buf,
        GST_CUDA_VISION_CORRELATION_FLOW, self->corr.tiles_x,
        self->corr.tiles_y,
        (const GstCudaVisionTileMatch *) self->corr.host_matches);
    if (self->post)
      gst_element_post_message (GST_ELEMENT (self),
          gst_cuda_vision_correlator_message (&self->corr, GST_OBJECT (self),
              "cudaphasecorr", GST_BUFFER_PTS (buf),
              self->post_min_confidence));
  }
  return ret;
}

static gboolean
gst_cuda_phase_corr_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  /* Serialized: the streaming thread is not inside process_ip(). */
  if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP)
    GST_CUDA_PHASE_CORR (trans)->previous = -1;
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_phase_corr_parent_class)
      ->sink_event (trans, event);
}

static gboolean
gst_cuda_phase_corr_stop (GstBaseTransform * trans)
{
  GstCudaPhaseCorr *self = GST_CUDA_PHASE_CORR (trans);

  gst_cuda_vision_correlator_free (&self->corr, stream_of (self));
  self->previous = -1;
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_phase_corr_parent_class)->stop
      (trans);
}

static void
gst_cuda_phase_corr_class_init (GstCudaPhaseCorrClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstCudaVisionBaseTransformClass *base_class =
      GST_CUDA_VISION_BASE_TRANSFORM_CLASS (klass);
  GstCudaVisionFilterClass *filter_class = GST_CUDA_VISION_FILTER_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING;
  cvcore_clt_corr_params defaults;

  cvcore_clt_corr_params_init (&defaults);
  gobject_class->set_property = gst_cuda_phase_corr_set_property;
  gobject_class->get_property = gst_cuda_phase_corr_get_property;

  g_object_class_install_property (gobject_class, PROP_SEARCH_RADIUS,
      g_param_spec_int ("search-radius", "Search radius",
          "Largest motion searched, in whole pixels each way", 1,
          CVCORE_CLT_MAX_SEARCH, defaults.search_radius, flags));
  gst_cuda_vision_correlator_install_properties (gobject_class,
      PROP_CORRELATOR, "Draw the motion vectors onto the frames");

  gst_cuda_vision_filter_class_add_pad_templates (filter_class,
      PHASE_CORR_FORMATS);
  gst_element_class_set_static_metadata (element_class,
      "CUDA phase correlation", "Filter/Analyzer/Video/Hardware",
      "Tile motion (optical flow) by phase correlation in the lapped "
      "transform domain, in CUDA device memory",
      "gst-cuda-vision developers");

  trans_class->transform_ip = gst_cuda_phase_corr_transform_ip;
  trans_class->sink_event = gst_cuda_phase_corr_sink_event;
  trans_class->stop = gst_cuda_phase_corr_stop;
  base_class->set_info = gst_cuda_phase_corr_set_info;
  filter_class->process_ip = gst_cuda_phase_corr_process_ip;
}

static void
gst_cuda_phase_corr_init (GstCudaPhaseCorr * self)
{
  gst_cuda_vision_correlator_settings_init (&self->settings);
  self->previous = -1;
  gst_base_transform_set_in_place (GST_BASE_TRANSFORM (self), TRUE);
}
