#include "CPangoCairo.h"

#include <CLazyLibrary.h>
#include <stddef.h>
#include <stdio.h>

struct rp_pangocairo_functions rp_pangocairo;

#define ENTRY(field, symbol) { offsetof(struct rp_pangocairo_functions, field), symbol }
static const struct rp_lazy_symbol entries[] = {
    ENTRY(image_surface_create, "cairo_image_surface_create"), ENTRY(surface_status, "cairo_surface_status"),
    ENTRY(surface_flush, "cairo_surface_flush"), ENTRY(surface_destroy, "cairo_surface_destroy"),
    ENTRY(image_surface_get_stride, "cairo_image_surface_get_stride"), ENTRY(image_surface_get_data, "cairo_image_surface_get_data"),
    ENTRY(create, "cairo_create"), ENTRY(destroy, "cairo_destroy"), ENTRY(save, "cairo_save"), ENTRY(restore, "cairo_restore"),
    ENTRY(scale, "cairo_scale"), ENTRY(translate, "cairo_translate"), ENTRY(set_source_rgba, "cairo_set_source_rgba"),
    ENTRY(set_source, "cairo_set_source"), ENTRY(set_line_width, "cairo_set_line_width"), ENTRY(new_path, "cairo_new_path"),
    ENTRY(move_to, "cairo_move_to"), ENTRY(line_to, "cairo_line_to"), ENTRY(close_path, "cairo_close_path"),
    ENTRY(rectangle, "cairo_rectangle"), ENTRY(arc, "cairo_arc"), ENTRY(arc_negative, "cairo_arc_negative"),
    ENTRY(fill, "cairo_fill"), ENTRY(stroke, "cairo_stroke"), ENTRY(clip, "cairo_clip"),
    ENTRY(pattern_create_linear, "cairo_pattern_create_linear"),
    ENTRY(pattern_add_color_stop_rgba, "cairo_pattern_add_color_stop_rgba"), ENTRY(pattern_destroy, "cairo_pattern_destroy"),
    ENTRY(create_layout, "pango_cairo_create_layout"), ENTRY(show_layout, "pango_cairo_show_layout"),
    ENTRY(font_description_from_string, "pango_font_description_from_string"),
    ENTRY(font_description_free, "pango_font_description_free"),
    ENTRY(layout_set_font_description, "pango_layout_set_font_description"), ENTRY(layout_set_text, "pango_layout_set_text"),
    ENTRY(layout_set_width, "pango_layout_set_width"), ENTRY(layout_set_height, "pango_layout_set_height"),
    ENTRY(layout_set_wrap, "pango_layout_set_wrap"), ENTRY(layout_set_ellipsize, "pango_layout_set_ellipsize"),
    ENTRY(layout_get_pixel_size, "pango_layout_get_pixel_size"), ENTRY(object_unref, "g_object_unref"),
};

static struct rp_lazy_library library = RP_LAZY_LIBRARY("libpangocairo-1.0.so.0", entries, rp_pangocairo);

/* libpangocairo needs libpango, libcairo and libgobject: a lookup through its handle finds all of them. */
bool rp_pangocairo_load(void) { return rp_lazy_library_open(&library); }

const char *rp_pangocairo_failure(void) { return rp_lazy_library_failure(&library); }
