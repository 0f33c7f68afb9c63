/* The Wayland shim, as one translation unit: window.c (the toplevel, painting, the loop's source), input.c (keys,
   pointer, touch, cursor) and wayland_loader.c (the libraries, opened when the first window opens), so that the
   pointers wayland_functions.h renames the libraries' names to are defined once. */
#define _GNU_SOURCE
#include "window.c"
#include "input.c"
#include "wayland_loader.c"
