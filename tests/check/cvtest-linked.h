/* For test programs that link the plugin's objects: the plugin registered
 * statically, so that its types and its core are the ones the program
 * links. */
#ifndef CVTEST_LINKED_H
#define CVTEST_LINKED_H

#include <gst/gst.h>

G_BEGIN_DECLS

/* Registers the plugin "cudavision"; FALSE when it cannot be. */
gboolean cvtest_register_linked_plugin (void);

G_END_DECLS

#endif /* CVTEST_LINKED_H */
