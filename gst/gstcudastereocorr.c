/**
 * SECTION:element-cudastereocorr
 * @title: cudastereocorr
 *
 * Per-tile disparity of a stereo pair in cudavision device memory, by
 * phase correlation in the complex lapped transform domain: every 16x16
 * tile (stride 8) of the left view's luminance is matched with the right
 * view around the expected disparity. The element pairs the frames of its
 * two sink pads, `sink_left` and `sink_right`, by timestamp (within half a
 * frame; an unpaired frame is dropped) and passes the left frame on,
 * carrying a #GstCudaVisionCorrelationMeta of mode stereo: dx is how far
 * the tile's content lies to the left in the right view (the disparity),
 * dy how far down. Both views must have the same format and size.
 *
 * The search covers disparities from `min-disparity` to `max-disparity`
 * around their middle, one pixel more each way, and as far in y; it
 * reaches at most 7 pixels from the middle, so wider ranges are cut.
 * `post-messages`, `draw` and the other matching properties are those of
 * cudaphasecorr; the message is named `cudastereocorr`. Only the matches
 * come back from the GPU.
 *
 * This is the stereo mode of the tile processor's correlation; video
 * against its previous frame (optical flow) is cudaphasecorr.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 cudastereocorr name=s post-messages=true min-disparity=0 max-disparity=12 ! cudadownload ! fakesink v4l2src device=/dev/video0 ! videoconvert ! video/x-raw,format=GRAY8 ! cudaupload ! s.sink_left v4l2src device=/dev/video1 ! videoconvert ! video/x-raw,format=GRAY8 ! cudaupload ! s.sink_right
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudastereocorr.h"
#include "gstcudavisionbufferpool.h"
#include "gstcudavisioncorrelationmetaimpl.h"
#include "gstcudavisioncorrelator.h"
#include "gstcudavisiondevice.h"
#include "gstcudavisionformats.h"
#include "gstcudavisionmemory.h"
#include "gstcudavisionutils.h"

#include <math.h>

GST_DEBUG_CATEGORY_STATIC (gst_cuda_stereo_corr_debug);
#define GST_CAT_DEFAULT gst_cuda_stereo_corr_debug

#define STEREO_FORMATS \
    "{ GRAY8, GRAY16_LE, RGBA, BGRA, RGBx, BGRx, I420, NV12 }"
#define STEREO_CAPS GST_VIDEO_CAPS_MAKE_WITH_FEATURES \
    (GST_CAPS_FEATURE_MEMORY_CUDA_VISION, STEREO_FORMATS)


enum
{
  PROP_0,
  PROP_DEVICE_ID,
  PROP_MIN_DISPARITY,
  PROP_MAX_DISPARITY,
  PROP_CORRELATOR,              /* first of the shared matching properties */
};

struct _GstCudaStereoCorr
{
  GstAggregator parent;

  GstAggregatorPad *left, *right;

  /* properties, under the object lock */
  gint device_id;
  gdouble min_disparity, max_disparity;
  GstCudaVisionCorrelatorSettings settings;

  /* between start and stop; the device under the object lock */
  GstCudaVisionDevice *device;
  cvcore_stream *stream;
  GstVideoInfo info[2];         /* left, right */
  gboolean have_info[2];
  GstCudaVisionCorrelator corr;
};

static GstStaticPadTemplate sink_left_template =
GST_STATIC_PAD_TEMPLATE ("sink_left", GST_PAD_SINK, GST_PAD_ALWAYS,
    GST_STATIC_CAPS (STEREO_CAPS));
static GstStaticPadTemplate sink_right_template =
GST_STATIC_PAD_TEMPLATE ("sink_right", GST_PAD_SINK, GST_PAD_ALWAYS,
    GST_STATIC_CAPS (STEREO_CAPS));
static GstStaticPadTemplate src_template =
GST_STATIC_PAD_TEMPLATE ("src", GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS (STEREO_CAPS));

G_DEFINE_TYPE_WITH_CODE (GstCudaStereoCorr, gst_cuda_stereo_corr,
    GST_TYPE_AGGREGATOR,
    GST_DEBUG_CATEGORY_INIT (gst_cuda_stereo_corr_debug, "cudastereocorr", 0,
        "cudavision stereo correlation"));

static void
gst_cuda_stereo_corr_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaStereoCorr *self = GST_CUDA_STEREO_CORR (object);

  GST_OBJECT_LOCK (self);
  if (prop_id == PROP_DEVICE_ID)
    self->device_id = g_value_get_int (value);
  else if (prop_id == PROP_MIN_DISPARITY)
    self->min_disparity = g_value_get_double (value);
  else if (prop_id == PROP_MAX_DISPARITY)
    self->max_disparity = g_value_get_double (value);
  else if (!gst_cuda_vision_correlator_set_property (&self->settings,
          PROP_CORRELATOR, prop_id, value))
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_stereo_corr_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCudaStereoCorr *self = GST_CUDA_STEREO_CORR (object);

  GST_OBJECT_LOCK (self);
  if (prop_id == PROP_DEVICE_ID)
    g_value_set_int (value, self->device_id);
  else if (prop_id == PROP_MIN_DISPARITY)
    g_value_set_double (value, self->min_disparity);
  else if (prop_id == PROP_MAX_DISPARITY)
    g_value_set_double (value, self->max_disparity);
  else if (!gst_cuda_vision_correlator_get_property (&self->settings,
          PROP_CORRELATOR, prop_id, value))
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_stereo_corr_set_context (GstElement * element, GstContext * context)
{
  GstCudaStereoCorr *self = GST_CUDA_STEREO_CORR (element);

  GST_OBJECT_LOCK (self);
  gst_cuda_vision_handle_set_context (element, context, self->device_id,
      &self->device);
  GST_OBJECT_UNLOCK (self);
  GST_ELEMENT_CLASS (gst_cuda_stereo_corr_parent_class)->set_context
      (element, context);
}

static gboolean
gst_cuda_stereo_corr_start (GstAggregator * agg)
{
  GstCudaStereoCorr *self = GST_CUDA_STEREO_CORR (agg);
  gint device_id;

  GST_OBJECT_LOCK (self);
  device_id = self->device_id;
  GST_OBJECT_UNLOCK (self);
  if (!gst_cuda_vision_ensure_device (GST_ELEMENT (self), device_id,
          &self->device))
    return FALSE;
  if (cvcore_stream_new (gst_cuda_vision_device_get_core (self->device),
          &self->stream) != CVCORE_OK) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("Cannot create a stream on device %d", device_id),
        ("%s", cvcore_last_error ()));
    return FALSE;
  }
  self->have_info[0] = self->have_info[1] = FALSE;
  return TRUE;
}

static gboolean
gst_cuda_stereo_corr_stop (GstAggregator * agg)
{
  GstCudaStereoCorr *self = GST_CUDA_STEREO_CORR (agg);

  gst_cuda_vision_correlator_free (&self->corr, self->stream);
  if (self->stream) {
    cvcore_stream_synchronize (self->stream);
    cvcore_stream_free (self->stream);
    self->stream = NULL;
  }
  GST_OBJECT_LOCK (self);
  gst_clear_object (&self->device);
  GST_OBJECT_UNLOCK (self);
  return TRUE;
}

static gboolean
handle_context_query (GstCudaStereoCorr * self, GstQuery * query)
{
  GstCudaVisionDevice *device = NULL;
  gboolean ret;

  GST_OBJECT_LOCK (self);
  if (self->device)
    device = gst_object_ref (self->device);
  GST_OBJECT_UNLOCK (self);
  ret = gst_cuda_vision_handle_context_query (GST_ELEMENT (self), query,
      device);
  gst_clear_object (&device);
  return ret;
}

static gboolean
gst_cuda_stereo_corr_sink_query (GstAggregator * agg,
    GstAggregatorPad * pad, GstQuery * query)
{
  GstCudaStereoCorr *self = GST_CUDA_STEREO_CORR (agg);

  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT
      && handle_context_query (self, query))
    return TRUE;
  if (GST_QUERY_TYPE (query) == GST_QUERY_ALLOCATION && self->device)
    return gst_cuda_vision_propose_device_pool (self->device, query);
  return GST_AGGREGATOR_CLASS (gst_cuda_stereo_corr_parent_class)->sink_query
      (agg, pad, query);
}

static gboolean
gst_cuda_stereo_corr_src_query (GstAggregator * agg, GstQuery * query)
{
  GstCudaStereoCorr *self = GST_CUDA_STEREO_CORR (agg);

  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT
      && handle_context_query (self, query))
    return TRUE;
  return GST_AGGREGATOR_CLASS (gst_cuda_stereo_corr_parent_class)->src_query
      (agg, query);
}

static gboolean
same_geometry (GstCudaStereoCorr * self)
{
  return GST_VIDEO_INFO_FORMAT (&self->info[0]) ==
      GST_VIDEO_INFO_FORMAT (&self->info[1])
      && GST_VIDEO_INFO_WIDTH (&self->info[0]) ==
      GST_VIDEO_INFO_WIDTH (&self->info[1])
      && GST_VIDEO_INFO_HEIGHT (&self->info[0]) ==
      GST_VIDEO_INFO_HEIGHT (&self->info[1]);
}

/* Each view's caps (whether they agree is checked as each pair of frames
 * comes: the caps of both may change one after the other). */
static gboolean
gst_cuda_stereo_corr_sink_event (GstAggregator * agg,
    GstAggregatorPad * pad, GstEvent * event)
{
  GstCudaStereoCorr *self = GST_CUDA_STEREO_CORR (agg);

  if (GST_EVENT_TYPE (event) == GST_EVENT_CAPS) {
    const gint view = pad == self->left ? 0 : 1;
    GstCaps *caps;

    gst_event_parse_caps (event, &caps);
    self->have_info[view] =
        gst_cuda_vision_video_info_from_caps (&self->info[view], caps);
    if (!self->have_info[view]) {
      gst_event_unref (event);
      return FALSE;
    }
    if (view == 0)
      gst_cuda_vision_correlator_set_info (&self->corr, &self->info[0],
          self->stream);
  }
  return GST_AGGREGATOR_CLASS (gst_cuda_stereo_corr_parent_class)->sink_event
      (agg, pad, event);
}

/* The output is the left view. */
static GstFlowReturn
gst_cuda_stereo_corr_update_src_caps (GstAggregator * agg, GstCaps * caps,
    GstCaps ** ret)
{
  GstCudaStereoCorr *self = GST_CUDA_STEREO_CORR (agg);
  GstCaps *left = gst_pad_get_current_caps (GST_PAD (self->left));

  if (left == NULL)
    return GST_AGGREGATOR_FLOW_NEED_DATA;
  *ret = left;
  return GST_FLOW_OK;
}

static gboolean
map_view (GstCudaStereoCorr * self, GstBuffer * buffer, gint view,
    GstMapFlags flags, GstVideoFrame * frame)
{
  if (gst_buffer_n_memory (buffer) != 1
      || !gst_is_cuda_vision_memory (gst_buffer_peek_memory (buffer, 0))
      || !gst_video_frame_map (frame, &self->info[view], buffer,
          flags | GST_MAP_CUDA_VISION)) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("The %s view's frame is not mappable cudavision device memory",
            view ? "right" : "left"), (NULL));
    return FALSE;
  }
  return TRUE;
}

/* Forward transform of the left view, matching in the right view, the
 * matches read back as disparities. */
static gboolean
match_pair (GstCudaStereoCorr * self, GstBuffer * left, GstBuffer * right,
    const cvcore_clt_corr_params * params)
{
  GstMemory *mem[2] = { gst_buffer_peek_memory (left, 0),
    gst_buffer_peek_memory (right, 0)
  };
  GstVideoFrame frame[2];
  cvcore_image image[2];
  gboolean ok;

  if (!map_view (self, left, 0, GST_MAP_READ, &frame[0]))
    return FALSE;
  if (!map_view (self, right, 1, GST_MAP_READ, &frame[1])) {
    gst_video_frame_unmap (&frame[0]);
    return FALSE;
  }
  for (gint v = 0; v < 2; v++)
    gst_cuda_vision_correlator_image (&self->corr, &frame[v], &image[v]);
  ok = gst_cuda_vision_memory_begin_access (mem[0], self->stream)
      && gst_cuda_vision_memory_begin_access (mem[1], self->stream)
      && cvcore_clt_forward (self->stream, &image[0], self->corr.channel, 0,
      0, self->corr.coefficients[0]) == CVCORE_OK
      && cvcore_clt_correlate (self->stream, self->corr.coefficients[0],
      &image[1], self->corr.channel, params, self->corr.matches) == CVCORE_OK;
  /* record even after a failure: the chain of uses must stay unbroken */
  ok &= gst_cuda_vision_memory_end_access (mem[1], self->stream);
  ok &= gst_cuda_vision_memory_end_access (mem[0], self->stream);
  gst_video_frame_unmap (&frame[1]);
  gst_video_frame_unmap (&frame[0]);
  if (ok)
    ok = gst_cuda_vision_correlator_read (&self->corr,
        self->stream) == CVCORE_OK;
  if (!ok) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("Stereo matching failed"),
        ("%s", cvcore_last_error ()));
    return FALSE;
  }
  for (gint t = 0; t < self->corr.tiles_x * self->corr.tiles_y; t++)
    self->corr.host_matches[t].dx = -self->corr.host_matches[t].dx;
  return TRUE;
}

/* A copy of @left with the vectors drawn on it. */
static GstBuffer *
draw_copy (GstCudaStereoCorr * self, GstBuffer * left, gdouble scale,
    gdouble min_confidence)
{
  GstBuffer *out = gst_buffer_copy_deep (left);
  GstVideoFrame frame;
  cvcore_image image;
  gboolean ok;

  if (out == NULL || !map_view (self, out, 0, GST_MAP_READWRITE, &frame)) {
    gst_clear_buffer (&out);
    return NULL;
  }
  gst_cuda_vision_correlator_image (&self->corr, &frame, &image);
  ok = gst_cuda_vision_memory_begin_access (frame.map[0].memory,
      self->stream)
      && cvcore_clt_draw_matches (self->stream, &image, self->corr.matches,
      scale, min_confidence, self->corr.colour) == CVCORE_OK;
  ok &= gst_cuda_vision_memory_end_access (frame.map[0].memory,
      self->stream);
  gst_video_frame_unmap (&frame);
  if (!ok) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("Drawing failed"),
        ("%s", cvcore_last_error ()));
    gst_clear_buffer (&out);
  }
  return out;
}

static GstFlowReturn
gst_cuda_stereo_corr_aggregate (GstAggregator * agg, gboolean timeout)
{
  GstCudaStereoCorr *self = GST_CUDA_STEREO_CORR (agg);
  GstBuffer *left = gst_aggregator_pad_peek_buffer (self->left);
  GstBuffer *right = gst_aggregator_pad_peek_buffer (self->right);
  GstClockTime lt, rt, tolerance = GST_MSECOND;
  GstCudaVisionCorrelatorSettings settings;
  cvcore_clt_corr_params params;
  gdouble lo, hi;
  GstBuffer *out;

  if (left == NULL || right == NULL) {
    gboolean eos = left == NULL ? gst_aggregator_pad_is_eos (self->left) :
        gst_aggregator_pad_is_eos (self->right);

    gst_clear_buffer (&left);
    gst_clear_buffer (&right);
    return eos ? GST_FLOW_EOS : GST_FLOW_OK;
  }
  /* pair by timestamp: the earlier of two that are apart goes */
  lt = GST_BUFFER_PTS (left);
  rt = GST_BUFFER_PTS (right);
  if (GST_VIDEO_INFO_FPS_N (&self->info[0]) > 0)
    tolerance = gst_util_uint64_scale (GST_SECOND,
        GST_VIDEO_INFO_FPS_D (&self->info[0]),
        2 * GST_VIDEO_INFO_FPS_N (&self->info[0]));
  gst_buffer_unref (left);
  gst_buffer_unref (right);
  if (GST_CLOCK_TIME_IS_VALID (lt) && GST_CLOCK_TIME_IS_VALID (rt)
      && (lt + tolerance < rt || rt + tolerance < lt)) {
    GstAggregatorPad *late = lt < rt ? self->left : self->right;

    GST_DEBUG_OBJECT (self, "dropping an unpaired %s frame",
        late == self->left ? "left" : "right");
    gst_aggregator_pad_drop_buffer (late);
    return GST_FLOW_OK;
  }
  left = gst_aggregator_pad_pop_buffer (self->left);
  right = gst_aggregator_pad_pop_buffer (self->right);
  if (!self->have_info[0] || !self->have_info[1] || !same_geometry (self)) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("The left and right views differ in format or size"),
        ("left %s %dx%d, right %s %dx%d",
            gst_video_format_to_string (GST_VIDEO_INFO_FORMAT
                (&self->info[0])), GST_VIDEO_INFO_WIDTH (&self->info[0]),
            GST_VIDEO_INFO_HEIGHT (&self->info[0]),
            gst_video_format_to_string (GST_VIDEO_INFO_FORMAT
                (&self->info[1])), GST_VIDEO_INFO_WIDTH (&self->info[1]),
            GST_VIDEO_INFO_HEIGHT (&self->info[1])));
    gst_buffer_unref (left);
    gst_buffer_unref (right);
    return GST_FLOW_NOT_NEGOTIATED;
  }

  GST_OBJECT_LOCK (self);
  settings = self->settings;
  lo = MIN (self->min_disparity, self->max_disparity);
  hi = MAX (self->min_disparity, self->max_disparity);
  GST_OBJECT_UNLOCK (self);
  params = settings.params;
  /* the right view's content lies the disparity to the left */
  params.initial_x = -(lo + hi) / 2.0;
  params.search_radius = CLAMP ((gint) ceil ((hi - lo) / 2.0) + 1, 1,
      CVCORE_CLT_MAX_SEARCH);
  params.full_scale = self->corr.full_scale;

  if (gst_cuda_vision_correlator_ensure (&self->corr,
          gst_cuda_vision_device_get_core (self->device)) != CVCORE_OK) {
    GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
        ("Cannot allocate stereo matching buffers"),
        ("%s", cvcore_last_error ()));
    out = NULL;
  } else if (!match_pair (self, left, right, &params)) {
    out = NULL;
  } else if (settings.draw) {
    out = draw_copy (self, left, settings.draw_scale,
        settings.min_confidence);
  } else {
    out = gst_buffer_make_writable (gst_buffer_ref (left));
  }
  gst_buffer_unref (left);
  gst_buffer_unref (right);
  if (out == NULL)
    return GST_FLOW_ERROR;
  gst_buffer_add_cuda_vision_correlation_meta (out,
      GST_CUDA_VISION_CORRELATION_STEREO, self->corr.tiles_x,
      self->corr.tiles_y,
      (const GstCudaVisionTileMatch *) self->corr.host_matches);
  if (settings.post_messages)
    gst_element_post_message (GST_ELEMENT (self),
        gst_cuda_vision_correlator_message (&self->corr, GST_OBJECT (self),
            "cudastereocorr", GST_BUFFER_PTS (out),
            settings.min_confidence));
  return gst_aggregator_finish_buffer (agg, out);
}

static void
gst_cuda_stereo_corr_class_init (GstCudaStereoCorrClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstAggregatorClass *agg_class = GST_AGGREGATOR_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING;

  gobject_class->set_property = gst_cuda_stereo_corr_set_property;
  gobject_class->get_property = gst_cuda_stereo_corr_get_property;

  g_object_class_install_property (gobject_class, PROP_DEVICE_ID,
      g_param_spec_int ("device-id", "Device ID",
          "Index of the CUDA device to use (shared with neighbours of the "
          "same device-id)", 0, G_MAXINT, 0,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  gst_cuda_vision_install_double (gobject_class, PROP_MIN_DISPARITY,
      "min-disparity", "Minimum disparity", "Smallest disparity expected, in "
      "pixels (content further left in the right view is positive); the "
      "search reaches at most 7 pixels from the range's middle",
      -CVCORE_CLT_MAX_SHIFT, CVCORE_CLT_MAX_SHIFT, 0.0, flags);
  gst_cuda_vision_install_double (gobject_class, PROP_MAX_DISPARITY,
      "max-disparity", "Maximum disparity", "Largest disparity expected, in "
      "pixels", -CVCORE_CLT_MAX_SHIFT, CVCORE_CLT_MAX_SHIFT, 8.0, flags);
  gst_cuda_vision_correlator_install_properties (gobject_class,
      PROP_CORRELATOR, "Draw each tile's match (the motion from the left to "
      "the right view) onto a copy of the left frame");

  gst_element_class_add_static_pad_template_with_gtype (element_class,
      &sink_left_template, GST_TYPE_AGGREGATOR_PAD);
  gst_element_class_add_static_pad_template_with_gtype (element_class,
      &sink_right_template, GST_TYPE_AGGREGATOR_PAD);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "CUDA stereo correlation", "Filter/Analyzer/Video/Hardware",
      "Per-tile disparity of a stereo pair by phase correlation in the "
      "lapped transform domain, in CUDA device memory",
      "gst-cuda-vision developers");

  element_class->set_context = gst_cuda_stereo_corr_set_context;
  agg_class->start = gst_cuda_stereo_corr_start;
  agg_class->stop = gst_cuda_stereo_corr_stop;
  agg_class->sink_event = gst_cuda_stereo_corr_sink_event;
  agg_class->sink_query = gst_cuda_stereo_corr_sink_query;
  agg_class->src_query = gst_cuda_stereo_corr_src_query;
  agg_class->update_src_caps = gst_cuda_stereo_corr_update_src_caps;
  agg_class->aggregate = gst_cuda_stereo_corr_aggregate;
}

static void
gst_cuda_stereo_corr_init (GstCudaStereoCorr * self)
{
  GstElementClass *klass = GST_ELEMENT_GET_CLASS (self);

  gst_cuda_vision_correlator_settings_init (&self->settings);
  self->max_disparity = 8.0;
  self->left = g_object_new (GST_TYPE_AGGREGATOR_PAD, "name", "sink_left",
      "direction", GST_PAD_SINK, "template",
      gst_element_class_get_pad_template (klass, "sink_left"), NULL);
  self->right = g_object_new (GST_TYPE_AGGREGATOR_PAD, "name", "sink_right",
      "direction", GST_PAD_SINK, "template",
      gst_element_class_get_pad_template (klass, "sink_right"), NULL);
  gst_element_add_pad (GST_ELEMENT (self), GST_PAD (self->left));
  gst_element_add_pad (GST_ELEMENT (self), GST_PAD (self->right));
}
