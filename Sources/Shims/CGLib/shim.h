/* GLib's pkg-config flags for the Wayland shim, whose event source joins the loop's GLib main context. */
#include <glib.h>
