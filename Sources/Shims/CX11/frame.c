/* The picture and the controls over it: a frame is put as it is (no copy of the window's size is made), black
 * around it, and each strip of the controls is blended over what is under it and put alone. A window larger than the
 * screen is drawn at the size the screen can show. */
#include "window_private.h"

#include <X11/Xutil.h>
#include <stdlib.h>
#include <string.h>

void rp_window_get_drawn_size(const rp_window *w, int *width, int *height) {
    int screen = DefaultScreen(w->display);
    int screen_width = w->lost ? 0 : DisplayWidth(w->display, screen);
    int screen_height = w->lost ? 0 : DisplayHeight(w->display, screen);
    *width = screen_width > 0 && w->width > screen_width ? screen_width : w->width;
    *height = screen_height > 0 && w->height > screen_height ? screen_height : w->height;
}

void rp_window_set_overlay(rp_window *w, int strip, const uint32_t *argb, int width, int height, int y) {
    if (strip < 0 || strip >= RP_WINDOW_OVERLAY_STRIPS) return;
    struct rp_overlay_strip *s = &w->overlay[strip];
    free(s->pixels);
    s->pixels = NULL;
    if (!argb || width < 1 || height < 1 || y < 0) return;
    size_t bytes = (size_t)width * (size_t)height * 4;
    s->pixels = malloc(bytes);
    if (!s->pixels) return;
    memcpy(s->pixels, argb, bytes);
    s->width = width;
    s->height = height;
    s->y = y;
}

/* Whether row `y` is under one of the strips drawn over an area `width` wide; if so, the row after that strip. */
static bool row_under_strip(const rp_window *w, int width, int y, int *after) {
    for (int i = 0; i < RP_WINDOW_OVERLAY_STRIPS; i++) {
        const struct rp_overlay_strip *s = &w->overlay[i];
        if (s->pixels && s->width == width && y >= s->y && y < s->y + s->height) {
            *after = s->y + s->height;
            return true;
        }
    }
    return false;
}

/* The first row after `y` where a strip begins (`limit` when none does before it). */
static int next_strip_row(const rp_window *w, int width, int y, int limit) {
    for (int i = 0; i < RP_WINDOW_OVERLAY_STRIPS; i++) {
        const struct rp_overlay_strip *s = &w->overlay[i];
        if (s->pixels && s->width == width && s->y > y && s->y < limit) limit = s->y;
    }
    return limit;
}

/* Strip `s` blended over the frame (at left, top; black outside it), put at its rows. */
static void put_strip(rp_window *w, Visual *visual, int depth, const struct rp_overlay_strip *s, XImage *frame, int left,
                      int top, int area_height) {
    int rows = s->y + s->height > area_height ? area_height - s->y : s->height;
    if (rows < 1) return;
    uint32_t *composed = malloc((size_t)s->width * (size_t)rows * 4);
    if (!composed) return;
    for (int row = 0; row < rows; row++) {
        int fy = s->y + row - top;
        bool in_frame_row = fy >= 0 && fy < frame->height;
        for (int x = 0; x < s->width; x++) {
            int fx = x - left;
            uint32_t under = 0;
            if (in_frame_row && fx >= 0 && fx < frame->width)
                memcpy(&under, frame->data + (size_t)fy * (size_t)frame->bytes_per_line + (size_t)fx * 4, 4);
            uint32_t over = s->pixels[(size_t)row * (size_t)s->width + (size_t)x];
            uint32_t keep = 255 - (over >> 24), out = 0;
            for (int shift = 0; shift < 24; shift += 8) {
                uint32_t channel = ((over >> shift) & 0xff) + (((under >> shift) & 0xff) * keep + 127) / 255;
                out |= (channel > 255 ? 255 : channel) << shift;
            }
            composed[(size_t)row * (size_t)s->width + (size_t)x] = out;
        }
    }
    XImage *image = XCreateImage(w->display, visual, (unsigned)depth, ZPixmap, 0, (char *)composed, (unsigned)s->width,
                                 (unsigned)rows, 32, s->width * 4);
    if (image) {
        if (image->bits_per_pixel == 32) XPutImage(w->display, w->window, w->gc, image, 0, 0, 0, s->y, (unsigned)s->width, (unsigned)rows);
        image->data = NULL;
        XDestroyImage(image);
    }
    free(composed);
}

void rp_window_draw_frame(rp_window *w, const uint8_t *pixels, int width, int height, int stride) {
    if (w->lost || !w->visible || width < 1 || height < 1) return;
    int screen = DefaultScreen(w->display);
    Visual *visual = DefaultVisual(w->display, screen);
    if (visual->red_mask != 0xff0000 || visual->green_mask != 0xff00 || visual->blue_mask != 0xff) return;
    int depth = DefaultDepth(w->display, screen);
    XImage *image = XCreateImage(w->display, visual, (unsigned)depth, ZPixmap, 0, (char *)pixels, (unsigned)width,
                                 (unsigned)height, 32, stride);
    if (!image) return;
    if (image->bits_per_pixel != 32) {
        image->data = NULL;
        XDestroyImage(image);
        return;
    }
    int area_width, area_height;
    rp_window_get_drawn_size(w, &area_width, &area_height);
    /* The picture in the middle of the drawn area (fit leaves bars, fill covers it), its rows under the strips left
     * to the strips, which blend it with the controls. */
    int x = (area_width - width) / 2, y = (area_height - height) / 2;
    int first = y < 0 ? 0 : y, end = y + height < area_height ? y + height : area_height;
    for (int row = first, after; row < end;) {
        if (row_under_strip(w, area_width, row, &after)) {
            row = after;
            continue;
        }
        int until = next_strip_row(w, area_width, row, end);
        XPutImage(w->display, w->window, w->gc, image, x < 0 ? -x : 0, row - y, x < 0 ? 0 : x, row,
                  (unsigned)(x < 0 ? area_width : width), (unsigned)(until - row));
        row = until;
    }
    XSetForeground(w->display, w->gc, BlackPixel(w->display, screen));
    if (y > 0) {
        XFillRectangle(w->display, w->window, w->gc, 0, 0, (unsigned)area_width, (unsigned)y);
        XFillRectangle(w->display, w->window, w->gc, 0, y + height, (unsigned)area_width, (unsigned)(area_height - y - height));
    }
    if (x > 0) {
        XFillRectangle(w->display, w->window, w->gc, 0, 0, (unsigned)x, (unsigned)area_height);
        XFillRectangle(w->display, w->window, w->gc, x + width, 0, (unsigned)(area_width - x - width), (unsigned)area_height);
    }
    for (int i = 0; i < RP_WINDOW_OVERLAY_STRIPS; i++) {
        const struct rp_overlay_strip *s = &w->overlay[i];
        if (s->pixels && s->width == area_width && s->y < area_height) put_strip(w, visual, depth, s, image, x, y, area_height);
    }
    image->data = NULL; /* the pixels belong to the caller */
    XDestroyImage(image);
    XFlush(w->display);
}
