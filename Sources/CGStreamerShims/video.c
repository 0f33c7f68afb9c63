#include "CGStreamerShims.h"

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

void rp_video_sink_set_layout(GstElement *sink, int width, int height, int left, int top, int right, int bottom) {
    GstElement *size = gst_bin_get_by_name(GST_BIN(sink), "size");
    GstElement *crop = gst_bin_get_by_name(GST_BIN(sink), "crop");
    if (size) {
        /* The size asked for, else anything: a renegotiation that runs while the downstream part still holds
         * the previous size (a resize racing a seek, or playbin's converters renegotiating under load) then
         * settles on what it can instead of failing with not-negotiated and stopping the stream. */
        GstCaps *caps = gst_caps_new_any();
        if (width > 0 && height > 0) {
            gst_caps_unref(caps);
            caps = gst_caps_new_simple("video/x-raw", "width", G_TYPE_INT, width, "height", G_TYPE_INT, height,
                                       "pixel-aspect-ratio", GST_TYPE_FRACTION, 1, 1, NULL);
            gst_caps_append_structure(caps, gst_structure_new_empty("video/x-raw"));
        }
        g_object_set(size, "caps", caps, NULL);
        gst_caps_unref(caps);
        gst_object_unref(size);
    }
    if (crop) {
        g_object_set(crop, "left", left, "top", top, "right", right, "bottom", bottom, NULL);
        gst_object_unref(crop);
    }
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

char *rp_playbin_stream_tag(GstElement *playbin, const char *signal, int index, const char *tag) {
    GstTagList *tags = NULL;
    g_signal_emit_by_name(playbin, signal, index, &tags);
    if (!tags) return NULL;
    gchar *value = NULL;
    if (!gst_tag_list_get_string(tags, tag, &value)) value = NULL;
    gst_tag_list_unref(tags);
    return value;
}
