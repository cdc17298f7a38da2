#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "cvtest-linked.h"
#include "gstcudavisionplugin.h"

gboolean
cvtest_register_linked_plugin (void)
{
  return gst_plugin_register_static (GST_VERSION_MAJOR, GST_VERSION_MINOR,
      "cudavision", "cudavision (linked in)", gst_cuda_vision_plugin_init,
      PACKAGE_VERSION, GST_LICENSE, GST_PACKAGE_NAME, GST_PACKAGE_NAME,
      GST_PACKAGE_ORIGIN);
}
