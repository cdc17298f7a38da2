#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudavisionbasetransform.h"
#include "gstcudavisionutils.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_vision_base_transform_debug);
#define GST_CAT_DEFAULT gst_cuda_vision_base_transform_debug

#define DEFAULT_DEVICE_ID 0

enum
{
  PROP_0,
  PROP_DEVICE_ID,
};

typedef struct
{
  gint device_id;               /* guarded by the object lock */
  GstCudaVisionDevice *device;  /* guarded by the object lock */
  cvcore_stream *stream;
  GstVideoInfo in_info;
  GstVideoInfo out_info;
} GstCudaVisionBaseTransformPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GstCudaVisionBaseTransform,
    gst_cuda_vision_base_transform, GST_TYPE_BASE_TRANSFORM,
    G_ADD_PRIVATE (GstCudaVisionBaseTransform);
    GST_DEBUG_CATEGORY_INIT (gst_cuda_vision_base_transform_debug,
        "cudavisionbasetransform", 0, "cudavision base transform"));

#define PRIV(self) ((GstCudaVisionBaseTransformPrivate *) \
    gst_cuda_vision_base_transform_get_instance_private (self))

static void
gst_cuda_vision_base_transform_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaVisionBaseTransform *self = GST_CUDA_VISION_BASE_TRANSFORM (object);

  switch (prop_id) {
    case PROP_DEVICE_ID:
      GST_OBJECT_LOCK (self);
      PRIV (self)->device_id = g_value_get_int (value);
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_cuda_vision_base_transform_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCudaVisionBaseTransform *self = GST_CUDA_VISION_BASE_TRANSFORM (object);

  switch (prop_id) {
    case PROP_DEVICE_ID:
      GST_OBJECT_LOCK (self);
      g_value_set_int (value, PRIV (self)->device_id);
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_cuda_vision_base_transform_set_context (GstElement * element,
    GstContext * context)
{
  GstCudaVisionBaseTransform *self = GST_CUDA_VISION_BASE_TRANSFORM (element);
  GstCudaVisionBaseTransformPrivate *priv = PRIV (self);

  GST_OBJECT_LOCK (self);
  gst_cuda_vision_handle_set_context (element, context, priv->device_id,
      &priv->device);
  GST_OBJECT_UNLOCK (self);

  GST_ELEMENT_CLASS (gst_cuda_vision_base_transform_parent_class)->set_context
      (element, context);
}

static gboolean
gst_cuda_vision_base_transform_start (GstBaseTransform * trans)
{
  GstCudaVisionBaseTransform *self = GST_CUDA_VISION_BASE_TRANSFORM (trans);
  GstCudaVisionBaseTransformPrivate *priv = PRIV (self);
  gint device_id;

  GST_OBJECT_LOCK (self);
  device_id = priv->device_id;
  GST_OBJECT_UNLOCK (self);
  /* The device arrives through set_context, which takes the object lock. */
  return gst_cuda_vision_open_stream (GST_ELEMENT_CAST (self), device_id,
      &priv->device, &priv->stream);
}

static gboolean
gst_cuda_vision_base_transform_stop (GstBaseTransform * trans)
{
  GstCudaVisionBaseTransform *self = GST_CUDA_VISION_BASE_TRANSFORM (trans);
  GstCudaVisionBaseTransformPrivate *priv = PRIV (self);

  gst_cuda_vision_close_stream (GST_ELEMENT_CAST (self), &priv->device,
      &priv->stream);
  return TRUE;
}

static gboolean
gst_cuda_vision_base_transform_query (GstBaseTransform * trans,
    GstPadDirection direction, GstQuery * query)
{
  GstCudaVisionBaseTransform *self = GST_CUDA_VISION_BASE_TRANSFORM (trans);

  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT) {
    GstCudaVisionDevice *device = NULL;
    gboolean ret;

    GST_OBJECT_LOCK (self);
    if (PRIV (self)->device)
      device = gst_object_ref (PRIV (self)->device);
    GST_OBJECT_UNLOCK (self);
    ret = gst_cuda_vision_handle_context_query (GST_ELEMENT_CAST (self),
        query, device);
    gst_clear_object (&device);
    if (ret)
      return TRUE;
  }
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_vision_base_transform_parent_class)
      ->query (trans, direction, query);
}

static gboolean
gst_cuda_vision_base_transform_set_caps (GstBaseTransform * trans,
    GstCaps * incaps, GstCaps * outcaps)
{
  GstCudaVisionBaseTransform *self = GST_CUDA_VISION_BASE_TRANSFORM (trans);
  GstCudaVisionBaseTransformClass *klass =
      GST_CUDA_VISION_BASE_TRANSFORM_GET_CLASS (self);
  GstCudaVisionBaseTransformPrivate *priv = PRIV (self);
  GstVideoInfo in_info, out_info;

  if (!gst_cuda_vision_video_info_from_caps (&in_info, incaps)
      || !gst_cuda_vision_video_info_from_caps (&out_info, outcaps)) {
    GST_ERROR_OBJECT (self, "cannot parse caps %" GST_PTR_FORMAT " -> %"
        GST_PTR_FORMAT, incaps, outcaps);
    return FALSE;
  }
  if (klass->set_info && !klass->set_info (self, incaps, &in_info, outcaps,
          &out_info))
    return FALSE;
  priv->in_info = in_info;
  priv->out_info = out_info;
  return TRUE;
}

static void
gst_cuda_vision_base_transform_class_init (GstCudaVisionBaseTransformClass *
    klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->set_property = gst_cuda_vision_base_transform_set_property;
  gobject_class->get_property = gst_cuda_vision_base_transform_get_property;

  /**
   * GstCudaVisionBaseTransform:device-id:
   *
   * Index of the device to run on, in the backend selected by
   * GST_CUDAVISION_BACKEND. Elements of a pipeline with the same device-id
   * share one device through GstContext.
   */
  g_object_class_install_property (gobject_class, PROP_DEVICE_ID,
      g_param_spec_int ("device-id", "Device ID",
          "Index of the CUDA device to use (shared with neighbours of the "
          "same device-id)", 0, G_MAXINT, DEFAULT_DEVICE_ID,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  element_class->set_context = gst_cuda_vision_base_transform_set_context;

  trans_class->start = gst_cuda_vision_base_transform_start;
  trans_class->stop = gst_cuda_vision_base_transform_stop;
  trans_class->query = gst_cuda_vision_base_transform_query;
  trans_class->set_caps = gst_cuda_vision_base_transform_set_caps;

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_VISION_BASE_TRANSFORM, 0);
}

static void
gst_cuda_vision_base_transform_init (GstCudaVisionBaseTransform * self)
{
  PRIV (self)->device_id = DEFAULT_DEVICE_ID;
}

GstCudaVisionDevice *
gst_cuda_vision_base_transform_get_device (GstCudaVisionBaseTransform * self)
{
  return PRIV (self)->device;
}

cvcore_stream *
gst_cuda_vision_base_transform_get_stream (GstCudaVisionBaseTransform * self)
{
  return PRIV (self)->stream;
}

void
gst_cuda_vision_base_transform_finish_work (GstCudaVisionBaseTransform * self)
{
  if (PRIV (self)->stream)
    cvcore_stream_synchronize (PRIV (self)->stream);
}

const GstVideoInfo *
gst_cuda_vision_base_transform_get_in_info (GstCudaVisionBaseTransform * self)
{
  return &PRIV (self)->in_info;
}

const GstVideoInfo *
gst_cuda_vision_base_transform_get_out_info (GstCudaVisionBaseTransform * self)
{
  return &PRIV (self)->out_info;
}

GstFlowReturn
gst_cuda_vision_base_transform_core_error (GstCudaVisionBaseTransform * self,
    const gchar * what)
{
  GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("%s", what), ("%s",
          cvcore_last_error ()));
  return GST_FLOW_ERROR;
}
