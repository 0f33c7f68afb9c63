#include "CGStreamerShims.h"

/* What the fakesink's handoff hands each buffer to. */
typedef struct {
    rp_float_frames_callback callback;
    void *context;
} DecodeTarget;

static void on_handoff(GstElement *sink, GstBuffer *buffer, GstPad *pad, gpointer data) {
    (void)sink;
    DecodeTarget *target = data;
    GstCaps *caps = gst_pad_get_current_caps(pad);
    if (!caps) return;
    GstStructure *structure = gst_caps_get_structure(caps, 0);
    int rate = 0, channels = 0;
    gst_structure_get_int(structure, "rate", &rate);
    gst_structure_get_int(structure, "channels", &channels);
    gst_caps_unref(caps);
    GstMapInfo map;
    if (rate <= 0 || channels <= 0 || !gst_buffer_map(buffer, &map, GST_MAP_READ)) return;
    size_t frames = map.size / (sizeof(float) * (size_t)channels);
    if (frames > 0) target->callback(target->context, (const float *)map.data, frames, rate, channels);
    gst_buffer_unmap(buffer, &map);
}

int rp_decode_float(const char *uri, rp_float_frames_callback callback, void *context, const volatile int *cancel,
                    int64_t timeout_ms) {
    GstElement *pipeline = gst_pipeline_new("reprise-decode");
    GstElement *source = gst_element_factory_make("uridecodebin", NULL);
    GstElement *convert = gst_element_factory_make("audioconvert", NULL);
    GstElement *filter = gst_element_factory_make("capsfilter", NULL);
    GstElement *sink = gst_element_factory_make("fakesink", NULL);
    if (!pipeline || !source || !convert || !filter || !sink) {
        if (pipeline) gst_object_unref(pipeline);
        GstElement *loose[] = {source, convert, filter, sink};
        for (int i = 0; i < 4; i++) if (loose[i]) gst_object_unref(loose[i]);
        return -1;
    }
    GstCaps *caps = gst_caps_from_string("audio/x-raw,format=F32LE,layout=interleaved");
    g_object_set(filter, "caps", caps, NULL);
    gst_caps_unref(caps);
    /* Only the first audio stream, decoded as fast as the CPU allows (no clock). */
    GstCaps *audio = gst_caps_from_string("audio/x-raw");
    g_object_set(source, "uri", uri, "caps", audio, NULL);
    gst_caps_unref(audio);
    g_object_set(sink, "sync", FALSE, "signal-handoffs", TRUE, NULL);
    DecodeTarget target = {callback, context};
    g_signal_connect(sink, "handoff", G_CALLBACK(on_handoff), &target);
    gst_bin_add_many(GST_BIN(pipeline), source, convert, filter, sink, NULL);
    if (!gst_element_link_many(convert, filter, sink, NULL)) {
        gst_object_unref(pipeline);
        return -1;
    }
    g_signal_connect(source, "pad-added", G_CALLBACK(rp_link_first_audio_pad), convert);
    int result = -1;
    if (gst_element_set_state(pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE) {
        GstBus *bus = gst_element_get_bus(pipeline);
        int64_t waited = 0;
        for (;;) {
            if (cancel && *cancel) { result = -2; break; }
            if (timeout_ms > 0 && waited >= timeout_ms) { result = -3; break; }
            GstMessage *message = gst_bus_timed_pop_filtered(bus, 100 * GST_MSECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
            waited += 100;
            if (!message) continue;
            result = GST_MESSAGE_TYPE(message) == GST_MESSAGE_EOS ? 0 : -1;
            gst_message_unref(message);
            break;
        }
        gst_object_unref(bus);
    }
    gst_element_set_state(pipeline, GST_STATE_NULL);
    gst_object_unref(pipeline);
    return result;
}

void rp_link_first_audio_pad(GstElement *source, GstPad *pad, gpointer data) {
    (void)source;
    GstElement *convert = data;
    GstCaps *caps = gst_pad_get_current_caps(pad);
    if (!caps) caps = gst_pad_query_caps(pad, NULL);
    const gchar *name = caps && gst_caps_get_size(caps) > 0 ? gst_structure_get_name(gst_caps_get_structure(caps, 0)) : "";
    gboolean audio = g_str_has_prefix(name, "audio/");
    if (caps) gst_caps_unref(caps);
    if (!audio) return;
    GstPad *sinkpad = gst_element_get_static_pad(convert, "sink");
    if (!gst_pad_is_linked(sinkpad)) gst_pad_link(pad, sinkpad);
    gst_object_unref(sinkpad);
}
