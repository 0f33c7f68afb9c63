#include <gst/gst.h>
#include <glib-unix.h>
