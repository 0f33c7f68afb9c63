/* Pango over Cairo for the video controls, loaded when first needed: the few calls the controls make, under their
   own names, forwarded to libpangocairo-1.0 and libcairo (Debian libpango-1.0-0, libcairo2) once
   rp_pangocairo_load() has opened them. A player that never shows its controls maps neither, nor the fonts,
   FreeType, HarfBuzz and pixman they bring. The types are opaque; the values are those of the libraries' stable ABI. */
#ifndef RP_PANGOCAIRO_H
#define RP_PANGOCAIRO_H

#include <stdbool.h>

typedef struct _cairo cairo_t;
typedef struct _cairo_surface cairo_surface_t;
typedef struct _cairo_pattern cairo_pattern_t;
typedef struct _PangoLayout PangoLayout;
typedef struct _PangoFontDescription PangoFontDescription;

typedef enum { CAIRO_FORMAT_ARGB32 = 0 } cairo_format_t;
typedef enum { CAIRO_STATUS_SUCCESS = 0 } cairo_status_t;
typedef enum { PANGO_ELLIPSIZE_NONE = 0, PANGO_ELLIPSIZE_END = 3 } PangoEllipsizeMode;
typedef enum { PANGO_WRAP_WORD_CHAR = 2 } PangoWrapMode;
#define PANGO_SCALE 1024

/* The libraries' functions, resolved by rp_pangocairo_load(). */
struct rp_pangocairo_functions {
    cairo_surface_t *(*image_surface_create)(cairo_format_t, int, int);
    cairo_status_t (*surface_status)(cairo_surface_t *);
    void (*surface_flush)(cairo_surface_t *);
    void (*surface_destroy)(cairo_surface_t *);
    int (*image_surface_get_stride)(cairo_surface_t *);
    unsigned char *(*image_surface_get_data)(cairo_surface_t *);
    cairo_t *(*create)(cairo_surface_t *);
    void (*destroy)(cairo_t *);
    void (*save)(cairo_t *);
    void (*restore)(cairo_t *);
    void (*scale)(cairo_t *, double, double);
    void (*translate)(cairo_t *, double, double);
    void (*set_source_rgba)(cairo_t *, double, double, double, double);
    void (*set_source)(cairo_t *, cairo_pattern_t *);
    void (*set_line_width)(cairo_t *, double);
    void (*new_path)(cairo_t *);
    void (*move_to)(cairo_t *, double, double);
    void (*line_to)(cairo_t *, double, double);
    void (*close_path)(cairo_t *);
    void (*rectangle)(cairo_t *, double, double, double, double);
    void (*arc)(cairo_t *, double, double, double, double, double);
    void (*arc_negative)(cairo_t *, double, double, double, double, double);
    void (*fill)(cairo_t *);
    void (*stroke)(cairo_t *);
    void (*clip)(cairo_t *);
    cairo_pattern_t *(*pattern_create_linear)(double, double, double, double);
    void (*pattern_add_color_stop_rgba)(cairo_pattern_t *, double, double, double, double, double);
    void (*pattern_destroy)(cairo_pattern_t *);
    PangoLayout *(*create_layout)(cairo_t *);
    void (*show_layout)(cairo_t *, PangoLayout *);
    PangoFontDescription *(*font_description_from_string)(const char *);
    void (*font_description_free)(PangoFontDescription *);
    void (*layout_set_font_description)(PangoLayout *, const PangoFontDescription *);
    void (*layout_set_text)(PangoLayout *, const char *, int);
    void (*layout_set_width)(PangoLayout *, int);
    void (*layout_set_height)(PangoLayout *, int);
    void (*layout_set_wrap)(PangoLayout *, PangoWrapMode);
    void (*layout_set_ellipsize)(PangoLayout *, PangoEllipsizeMode);
    void (*layout_get_pixel_size)(PangoLayout *, int *, int *);
    void (*object_unref)(void *);
};

extern struct rp_pangocairo_functions rp_pangocairo;

/* Opens the libraries and resolves every function, once (thread-safe); false when one is missing: nothing below
   may then be called. */
bool rp_pangocairo_load(void);

/* Loads as rp_pangocairo_load() does, and says why that failed (dlopen's message, or the function missing); NULL when it did not. */
const char *rp_pangocairo_failure(void);

static inline cairo_surface_t *cairo_image_surface_create(cairo_format_t f, int w, int h) { return rp_pangocairo.image_surface_create(f, w, h); }
static inline cairo_status_t cairo_surface_status(cairo_surface_t *s) { return rp_pangocairo.surface_status(s); }
static inline void cairo_surface_flush(cairo_surface_t *s) { rp_pangocairo.surface_flush(s); }
static inline void cairo_surface_destroy(cairo_surface_t *s) { rp_pangocairo.surface_destroy(s); }
static inline int cairo_image_surface_get_stride(cairo_surface_t *s) { return rp_pangocairo.image_surface_get_stride(s); }
static inline unsigned char *cairo_image_surface_get_data(cairo_surface_t *s) { return rp_pangocairo.image_surface_get_data(s); }
static inline cairo_t *cairo_create(cairo_surface_t *s) { return rp_pangocairo.create(s); }
static inline void cairo_destroy(cairo_t *cr) { rp_pangocairo.destroy(cr); }
static inline void cairo_save(cairo_t *cr) { rp_pangocairo.save(cr); }
static inline void cairo_restore(cairo_t *cr) { rp_pangocairo.restore(cr); }
static inline void cairo_scale(cairo_t *cr, double x, double y) { rp_pangocairo.scale(cr, x, y); }
static inline void cairo_translate(cairo_t *cr, double x, double y) { rp_pangocairo.translate(cr, x, y); }
static inline void cairo_set_source_rgba(cairo_t *cr, double r, double g, double b, double a) { rp_pangocairo.set_source_rgba(cr, r, g, b, a); }
static inline void cairo_set_source(cairo_t *cr, cairo_pattern_t *p) { rp_pangocairo.set_source(cr, p); }
static inline void cairo_set_line_width(cairo_t *cr, double w) { rp_pangocairo.set_line_width(cr, w); }
static inline void cairo_new_path(cairo_t *cr) { rp_pangocairo.new_path(cr); }
static inline void cairo_move_to(cairo_t *cr, double x, double y) { rp_pangocairo.move_to(cr, x, y); }
static inline void cairo_line_to(cairo_t *cr, double x, double y) { rp_pangocairo.line_to(cr, x, y); }
static inline void cairo_close_path(cairo_t *cr) { rp_pangocairo.close_path(cr); }
static inline void cairo_rectangle(cairo_t *cr, double x, double y, double w, double h) { rp_pangocairo.rectangle(cr, x, y, w, h); }
static inline void cairo_arc(cairo_t *cr, double x, double y, double r, double a1, double a2) { rp_pangocairo.arc(cr, x, y, r, a1, a2); }
static inline void cairo_arc_negative(cairo_t *cr, double x, double y, double r, double a1, double a2) { rp_pangocairo.arc_negative(cr, x, y, r, a1, a2); }
static inline void cairo_fill(cairo_t *cr) { rp_pangocairo.fill(cr); }
static inline void cairo_stroke(cairo_t *cr) { rp_pangocairo.stroke(cr); }
static inline void cairo_clip(cairo_t *cr) { rp_pangocairo.clip(cr); }
static inline cairo_pattern_t *cairo_pattern_create_linear(double x0, double y0, double x1, double y1) { return rp_pangocairo.pattern_create_linear(x0, y0, x1, y1); }
static inline void cairo_pattern_add_color_stop_rgba(cairo_pattern_t *p, double o, double r, double g, double b, double a) { rp_pangocairo.pattern_add_color_stop_rgba(p, o, r, g, b, a); }
static inline void cairo_pattern_destroy(cairo_pattern_t *p) { rp_pangocairo.pattern_destroy(p); }
static inline PangoLayout *pango_cairo_create_layout(cairo_t *cr) { return rp_pangocairo.create_layout(cr); }
static inline void pango_cairo_show_layout(cairo_t *cr, PangoLayout *l) { rp_pangocairo.show_layout(cr, l); }
static inline PangoFontDescription *pango_font_description_from_string(const char *s) { return rp_pangocairo.font_description_from_string(s); }
static inline void pango_font_description_free(PangoFontDescription *d) { rp_pangocairo.font_description_free(d); }
static inline void pango_layout_set_font_description(PangoLayout *l, const PangoFontDescription *d) { rp_pangocairo.layout_set_font_description(l, d); }
static inline void pango_layout_set_text(PangoLayout *l, const char *t, int n) { rp_pangocairo.layout_set_text(l, t, n); }
static inline void pango_layout_set_width(PangoLayout *l, int w) { rp_pangocairo.layout_set_width(l, w); }
static inline void pango_layout_set_height(PangoLayout *l, int h) { rp_pangocairo.layout_set_height(l, h); }
static inline void pango_layout_set_wrap(PangoLayout *l, PangoWrapMode m) { rp_pangocairo.layout_set_wrap(l, m); }
static inline void pango_layout_set_ellipsize(PangoLayout *l, PangoEllipsizeMode m) { rp_pangocairo.layout_set_ellipsize(l, m); }
static inline void pango_layout_get_pixel_size(PangoLayout *l, int *w, int *h) { rp_pangocairo.layout_get_pixel_size(l, w, h); }
static inline void g_object_unref(void *object) { rp_pangocairo.object_unref(object); }

#endif
