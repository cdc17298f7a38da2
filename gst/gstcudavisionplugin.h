#ifndef __GST_CUDA_VISION_PLUGIN_H__
#define __GST_CUDA_VISION_PLUGIN_H__

#include <gst/gst.h>

G_BEGIN_DECLS

#define GST_CUDA_VISION_PLUGIN_NAME "cudavision"
/* Name of the other plugin that owns element name @name in the registry, or
 * NULL when the name is free or ours. */
gchar * gst_cuda_vision_name_owner (const gchar * name);

/* Registers the plugin's elements and memory types; tests of the internals
 * call it through gst_plugin_register_static(). */
gboolean gst_cuda_vision_plugin_init (GstPlugin * plugin);

G_END_DECLS

#endif /* __GST_CUDA_VISION_PLUGIN_H__ */
