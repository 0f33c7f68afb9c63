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

/* A pipeline decoding `uri`'s first audio stream as fast as the CPU allows (no clock) to `caps` (converted without
   dither, so one file gives the same samples every time), through `analyser` (taken; NULL for none) into a fakesink
   (in `*sink`). NULL when an element is missing. */
static GstElement *decode_pipeline(const char *uri, const char *caps, GstElement *analyser, GstElement **sink) {
    GstElement *pipeline = gst_pipeline_new("reprise-decode");
    GstElement *source = gst_element_factory_make("uridecodebin", NULL);
    GstElement *convert = gst_element_factory_make("audioconvert", NULL);
    GstElement *filter = gst_element_factory_make("capsfilter", NULL);
    *sink = gst_element_factory_make("fakesink", NULL);
    GstElement *loose[] = {source, convert, filter, *sink, analyser};
    if (!pipeline || !source || !convert || !filter || !*sink) {
        if (pipeline) gst_object_unref(pipeline);
        for (int i = 0; i < 5; i++) if (loose[i]) gst_object_unref(loose[i]);
        return NULL;
    }
    GstCaps *wanted = gst_caps_from_string(caps);
    g_object_set(filter, "caps", wanted, NULL);
    gst_caps_unref(wanted);
    g_object_set(convert, "dithering", 0, "noise-shaping", 0, NULL);
    GstCaps *audio = gst_caps_from_string("audio/x-raw");
    g_object_set(source, "uri", uri, "caps", audio, NULL);
    gst_caps_unref(audio);
    g_object_set(*sink, "sync", FALSE, NULL);
    gst_bin_add_many(GST_BIN(pipeline), source, convert, filter, *sink, NULL);
    gboolean linked;
    if (analyser) {
        gst_bin_add(GST_BIN(pipeline), analyser);
        linked = gst_element_link_many(convert, filter, analyser, *sink, NULL);
    } else {
        linked = gst_element_link_many(convert, filter, *sink, NULL);
    }
    if (!linked) {
        gst_object_unref(pipeline);
        return NULL;
    }
    g_signal_connect(source, "pad-added", G_CALLBACK(rp_link_first_audio_pad), convert);
    return pipeline;
}

/* Plays `pipeline` until the stream ends (0), fails (-1), `*cancel` becomes non-zero (-2), `timeout_ms` passes (-3,
   0: no limit) or, when `until_tag` is not NULL, a tag of that name is posted (0). Leaves it stopped. */
static int run_until_end(GstElement *pipeline, const volatile int *cancel, int64_t timeout_ms, const char *until_tag) {
    int result = -1;
    if (gst_element_set_state(pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE) {
        GstBus *bus = gst_element_get_bus(pipeline);
        GstMessageType ends = GST_MESSAGE_EOS | GST_MESSAGE_ERROR | (until_tag ? GST_MESSAGE_TAG : 0);
        /* Measured on the clock: other elements' tag messages may come far more often than every 100 ms. */
        gint64 deadline = g_get_monotonic_time() + timeout_ms * 1000;
        for (;;) {
            if (cancel && *cancel) { result = -2; break; }
            if (timeout_ms > 0 && g_get_monotonic_time() >= deadline) { result = -3; break; }
            GstMessage *message = gst_bus_timed_pop_filtered(bus, 100 * GST_MSECOND, ends);
            if (!message) continue;
            gboolean tagged = FALSE;
            if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_TAG) {
                GstTagList *tags = NULL;
                gst_message_parse_tag(message, &tags);
                tagged = tags && gst_tag_list_get_tag_size(tags, until_tag) > 0;
                if (tags) gst_tag_list_unref(tags);
                if (!tagged) {
                    gst_message_unref(message);
                    continue;
                }
            }
            result = tagged || GST_MESSAGE_TYPE(message) == GST_MESSAGE_EOS ? 0 : -1;
            gst_message_unref(message);
            break;
        }
        gst_object_unref(bus);
    }
    gst_element_set_state(pipeline, GST_STATE_NULL);
    return result;
}

int rp_decode_float(const char *uri, rp_float_frames_callback callback, void *context, const volatile int *cancel,
                    int64_t timeout_ms) {
    GstElement *sink = NULL;
    GstElement *pipeline = decode_pipeline(uri, "audio/x-raw,format=F32LE,layout=interleaved", NULL, &sink);
    if (!pipeline) return -1;
    DecodeTarget target = {callback, context};
    g_object_set(sink, "signal-handoffs", TRUE, NULL);
    g_signal_connect(sink, "handoff", G_CALLBACK(on_handoff), &target);
    int result = run_until_end(pipeline, cancel, timeout_ms, NULL);
    gst_object_unref(pipeline);
    return result;
}

int rp_audio_fingerprint(const char *uri, int64_t timeout_ms, char **fingerprint) {
    *fingerprint = NULL;
    GstElement *chromaprint = gst_element_factory_make("chromaprint", NULL);
    if (!chromaprint) return -4;
    GstElement *sink = NULL;
    /* Interleaved: the element takes any layout its caps allow and would fingerprint planar samples as if they were
       interleaved. */
    GstElement *pipeline = decode_pipeline(uri, "audio/x-raw,format=S16LE,layout=interleaved", gst_object_ref(chromaprint), &sink);
    if (!pipeline) {
        gst_object_unref(chromaprint);
        return -1;
    }
    int result = run_until_end(pipeline, NULL, timeout_ms, "chromaprint-fingerprint");
    if (result == 0) {
        g_object_get(chromaprint, "fingerprint", fingerprint, NULL);
        if (!*fingerprint || !**fingerprint) {
            g_free(*fingerprint);
            *fingerprint = NULL;
            result = -1; /* no sound at all */
        }
    }
    gst_object_unref(chromaprint);
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
