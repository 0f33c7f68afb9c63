/* libdecor: an xdg-shell toplevel with server-side decorations where the compositor offers them (xdg-decoration)
   and a frame it draws where not. This module carries its pkg-config flags to the C shim, CWayland. */
#include <libdecor.h>
