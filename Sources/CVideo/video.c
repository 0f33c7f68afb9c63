#include "CVideo.h"

#include <gst/video/videooverlay.h>

GstElement *rp_video_sink_new(unsigned long xid) {
    GError *error = NULL;
    GstElement *bin = gst_parse_bin_from_description(
        "videoconvert name=convert ! videoscale name=scale ! capsfilter name=size ! videocrop name=crop "
        "! videoconvert ! ximagesink name=screen handle-events=false",
        TRUE, &error);
    if (!bin) {
        g_clear_error(&error);
        return NULL;
    }
    gst_object_set_name(GST_OBJECT(bin), "video-output");
    GstElement *screen = gst_bin_get_by_name(GST_BIN(bin), "screen");
    if (screen) {
        gst_video_overlay_set_window_handle(GST_VIDEO_OVERLAY(screen), (guintptr)xid);
        gst_object_unref(screen);
    }
    return bin;
}

typedef struct {
    GstElement *sink;
    int width, height, left, top, right, bottom;
    gint applied;
} rp_layout;

static void apply_layout(const rp_layout *layout) {
    GstElement *size = gst_bin_get_by_name(GST_BIN(layout->sink), "size");
    GstElement *crop = gst_bin_get_by_name(GST_BIN(layout->sink), "crop");
    if (size) {
        GstCaps *caps = layout->width > 0 && layout->height > 0
            ? gst_caps_new_simple("video/x-raw", "width", G_TYPE_INT, layout->width, "height", G_TYPE_INT, layout->height,
                                  "pixel-aspect-ratio", GST_TYPE_FRACTION, 1, 1, NULL)
            : gst_caps_new_any();
        g_object_set(size, "caps", caps, NULL);
        gst_caps_unref(caps);
        gst_object_unref(size);
    }
    if (crop) {
        g_object_set(crop, "left", layout->left, "top", layout->top, "right", layout->right, "bottom", layout->bottom, NULL);
        gst_object_unref(crop);
    }
}

static GstPadProbeReturn apply_layout_when_idle(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void)pad;
    (void)info;
    rp_layout *layout = data;
    /* Applying it sends a reconfigure event up through this very pad, which idles it again and would call us
     * again (recursively, before the probe is removed): apply once. */
    if (g_atomic_int_compare_and_exchange(&layout->applied, 0, 1)) apply_layout(layout);
    return GST_PAD_PROBE_REMOVE;
}

static void free_layout(gpointer data) {
    rp_layout *layout = data;
    gst_object_unref(layout->sink);
    g_free(layout);
}

/* The new size and crop are applied while no buffer is passing the bin's entrance (an idle probe blocks the data
 * flow while it runs), so the renegotiation they cause never races a buffer or a flushing seek in the middle. */
void rp_video_sink_set_layout(GstElement *sink, int width, int height, int left, int top, int right, int bottom) {
    rp_layout *layout = g_new0(rp_layout, 1);
    layout->sink = gst_object_ref(sink);
    layout->width = width;
    layout->height = height;
    layout->left = left;
    layout->top = top;
    layout->right = right;
    layout->bottom = bottom;
    GstElement *convert = gst_bin_get_by_name(GST_BIN(sink), "convert");
    GstPad *pad = convert ? gst_element_get_static_pad(convert, "sink") : NULL;
    if (convert) gst_object_unref(convert);
    if (!pad) {
        apply_layout(layout);
        free_layout(layout);
        return;
    }
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_IDLE, apply_layout_when_idle, layout, free_layout);
    gst_object_unref(pad);
}

void rp_video_sink_expose(GstElement *sink) {
    GstElement *screen = gst_bin_get_by_name(GST_BIN(sink), "screen");
    if (!screen) return;
    gst_video_overlay_expose(GST_VIDEO_OVERLAY(screen));
    gst_object_unref(screen);
}

bool rp_playbin_video_format(GstElement *playbin, int *width, int *height, int *par_n, int *par_d) {
    GstPad *pad = NULL;
    int current = 0;
    g_object_get(playbin, "current-video", &current, NULL);
    if (current < 0) current = 0;
    g_signal_emit_by_name(playbin, "get-video-pad", current, &pad);
    if (!pad) return false;
    GstCaps *caps = gst_pad_get_current_caps(pad);
    gst_object_unref(pad);
    if (!caps) return false;
    bool found = false;
    if (gst_caps_get_size(caps) > 0) {
        GstStructure *s = gst_caps_get_structure(caps, 0);
        found = gst_structure_get_int(s, "width", width) && gst_structure_get_int(s, "height", height);
        if (!gst_structure_get_fraction(s, "pixel-aspect-ratio", par_n, par_d)) {
            *par_n = 1;
            *par_d = 1;
        }
    }
    gst_caps_unref(caps);
    return found;
}

int rp_object_get_int_property(gpointer object, const char *name) {
    int value = 0;
    g_object_get(object, name, &value, NULL);
    return value;
}

void rp_object_set_int_property(gpointer object, const char *name, int value) { g_object_set(object, name, value, NULL); }

unsigned rp_object_get_flags_property(gpointer object, const char *name) {
    unsigned value = 0;
    g_object_get(object, name, &value, NULL);
    return value;
}

char *rp_playbin_stream_tag(GstElement *playbin, const char *signal, int index, const char *tag) {
    GstTagList *tags = NULL;
    g_signal_emit_by_name(playbin, signal, index, &tags);
    if (!tags) return NULL;
    gchar *value = NULL;
    if (!gst_tag_list_get_string(tags, tag, &value)) value = NULL;
    gst_tag_list_unref(tags);
    return value;
}
