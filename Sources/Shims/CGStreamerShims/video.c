#include "CGStreamerShims.h"

#include <gst/video/video.h>

/* The latest frame the sink was handed, shared between the streaming thread (which replaces it) and the loop
 * (which draws it): behind a mutex, and announced to the loop with an idle source, one at a time. */
typedef struct {
    GMutex lock;
    GstBuffer *latest;
    GstVideoInfo info;
    gboolean has_info;
    gboolean notify_pending;
    void (*notify)(void *);
    void *userdata;
    GstVideoFrame mapped;
    gboolean is_mapped;
} rp_frames;

static gboolean notify_on_loop(gpointer data) {
    rp_frames *frames = data;
    g_mutex_lock(&frames->lock);
    frames->notify_pending = FALSE;
    g_mutex_unlock(&frames->lock);
    frames->notify(frames->userdata);
    return G_SOURCE_REMOVE;
}

/* fakesink's handoff, on the streaming thread: keep the frame, wake the loop. Never touches X or Swift. */
static void frame_handed_off(GstElement *sink, GstBuffer *buffer, GstPad *pad, gpointer data) {
    (void)sink;
    rp_frames *frames = data;
    GstCaps *caps = gst_pad_get_current_caps(pad);
    GstVideoInfo info;
    gboolean parsed = caps && gst_video_info_from_caps(&info, caps);
    if (caps) gst_caps_unref(caps);
    if (!parsed) return;
    g_mutex_lock(&frames->lock);
    gst_buffer_replace(&frames->latest, buffer);
    frames->info = info;
    frames->has_info = TRUE;
    gboolean notify = !frames->notify_pending;
    frames->notify_pending = TRUE;
    g_mutex_unlock(&frames->lock);
    if (notify) g_idle_add_full(G_PRIORITY_DEFAULT, notify_on_loop, frames, NULL);
}

/* The video sink bin `description` makes, named video-output, and its element named screen (a reference the
 * caller drops); NULL when an element is missing. */
static GstElement *sink_bin(const char *description, GstElement **screen) {
    GError *error = NULL;
    GstElement *bin = gst_parse_bin_from_description(description, TRUE, &error);
    if (!bin) {
        g_clear_error(&error);
        return NULL;
    }
    gst_object_set_name(GST_OBJECT(bin), "video-output");
    *screen = gst_bin_get_by_name(GST_BIN(bin), "screen");
    if (!*screen) {
        gst_object_unref(bin);
        return NULL;
    }
    return bin;
}

GstElement *rp_video_sink_new(void (*notify)(void *), void *userdata) {
    GstElement *screen = NULL;
    GstElement *bin = sink_bin(
        "videoconvert name=convert ! videoscale name=scale ! capsfilter name=size ! videocrop name=crop "
        "! videoconvert ! video/x-raw,format=BGRx ! fakesink name=screen sync=true signal-handoffs=true "
        "enable-last-sample=false qos=true", &screen);
    if (!bin) return NULL;
    rp_frames *frames = g_new0(rp_frames, 1); /* lives as long as the bin: the process's life */
    g_mutex_init(&frames->lock);
    frames->notify = notify;
    frames->userdata = userdata;
    g_object_set_data(G_OBJECT(bin), "rp-frames", frames);
    g_signal_connect(screen, "handoff", G_CALLBACK(frame_handed_off), frames);
    /* A paused stream only prerolls (after a seek, a new layout): its frame is shown too. */
    g_signal_connect(screen, "preroll-handoff", G_CALLBACK(frame_handed_off), frames);
    gst_object_unref(screen);
    return bin;
}

bool rp_video_sink_map_latest(GstElement *sink, rp_video_frame *frame) {
    rp_frames *frames = g_object_get_data(G_OBJECT(sink), "rp-frames");
    if (!frames || frames->is_mapped) return false;
    g_mutex_lock(&frames->lock);
    GstBuffer *buffer = frames->latest ? gst_buffer_ref(frames->latest) : NULL;
    GstVideoInfo info = frames->info;
    g_mutex_unlock(&frames->lock);
    if (!buffer) return false;
    gboolean mapped = gst_video_frame_map(&frames->mapped, &info, buffer, GST_MAP_READ);
    gst_buffer_unref(buffer); /* the mapped frame holds its own reference */
    if (!mapped) return false;
    frames->is_mapped = TRUE;
    frame->data = GST_VIDEO_FRAME_PLANE_DATA(&frames->mapped, 0);
    frame->width = GST_VIDEO_FRAME_WIDTH(&frames->mapped);
    frame->height = GST_VIDEO_FRAME_HEIGHT(&frames->mapped);
    frame->stride = GST_VIDEO_FRAME_PLANE_STRIDE(&frames->mapped, 0);
    return true;
}

void rp_video_sink_unmap(GstElement *sink) {
    rp_frames *frames = g_object_get_data(G_OBJECT(sink), "rp-frames");
    if (!frames || !frames->is_mapped) return;
    gst_video_frame_unmap(&frames->mapped);
    frames->is_mapped = FALSE;
}

void rp_video_sink_forget(GstElement *sink) {
    rp_frames *frames = g_object_get_data(G_OBJECT(sink), "rp-frames");
    if (!frames) return;
    g_mutex_lock(&frames->lock);
    gst_buffer_replace(&frames->latest, NULL);
    g_mutex_unlock(&frames->lock);
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

GstElement *rp_video_sink_new_wayland(void *display, void *surface, int width, int height) {
    GstElement *screen = NULL;
    GstElement *bin = sink_bin(
        "videocrop name=crop ! videoconvert ! waylandsink name=screen sync=true enable-last-sample=false qos=true", &screen);
    if (!bin) return NULL;
    if (!GST_IS_VIDEO_OVERLAY(screen)) {
        gst_object_unref(screen);
        gst_object_unref(bin);
        return NULL;
    }
    /* The display first (waylandsink ignores a window handle on a connection that is not the application's). */
    GstContext *context = gst_context_new("GstWlDisplayHandleContextType", TRUE);
    gst_structure_set(gst_context_writable_structure(context), "handle", G_TYPE_POINTER, display, NULL);
    gst_element_set_context(screen, context);
    gst_context_unref(context);
    gst_video_overlay_set_window_handle(GST_VIDEO_OVERLAY(screen), (guintptr)surface);
    gst_video_overlay_set_render_rectangle(GST_VIDEO_OVERLAY(screen), 0, 0, width, height);
    gst_object_unref(screen);
    return bin;
}

void rp_video_sink_set_render_rectangle(GstElement *sink, int x, int y, int width, int height) {
    GstElement *screen = gst_bin_get_by_name(GST_BIN(sink), "screen");
    if (!screen) return;
    if (GST_IS_VIDEO_OVERLAY(screen) && width > 0 && height > 0)
        gst_video_overlay_set_render_rectangle(GST_VIDEO_OVERLAY(screen), x, y, width, height);
    gst_object_unref(screen);
}
