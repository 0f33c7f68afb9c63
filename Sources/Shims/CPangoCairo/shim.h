/* Pango over Cairo (Debian libpango1.0-dev, libcairo2-dev): the video controls' text in the desktop's fonts
   (fontconfig) and their shapes, drawn into a buffer of Reprise's own. Used from Swift as is. */
#include <cairo.h>
#include <pango/pangocairo.h>
