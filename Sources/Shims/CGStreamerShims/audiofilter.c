#include "CGStreamerShims.h"

/* Links `element` after `*last` inside `bin` (or makes it the first); false when linking failed. */
static bool append(GstElement *bin, GstElement **first, GstElement **last, GstElement *element) {
    gst_bin_add(GST_BIN(bin), element);
    if (*last && !gst_element_link(*last, element)) return false;
    if (!*first) *first = element;
    *last = element;
    return true;
}

GstElement *rp_audio_filter_new(bool keep_pitch, bool replay_gain, GstElement **leveller, GstElement **limiter) {
    *leveller = NULL;
    *limiter = NULL;
    GstElement *bin = gst_bin_new("reprise-audio-filter");
    if (!bin) return NULL;
    GstElement *tempo = keep_pitch ? gst_element_factory_make("scaletempo", NULL) : NULL;
    GstElement *rgvolume = replay_gain ? gst_element_factory_make("rgvolume", "reprise-replaygain") : NULL;
    GstElement *rglimiter = rgvolume ? gst_element_factory_make("rglimiter", "reprise-limiter") : NULL;
    /* Never empty: playbin needs an element to link. */
    GstElement *passthrough = !tempo && !rgvolume ? gst_element_factory_make("identity", NULL) : NULL;
    GstElement *first = NULL, *last = NULL;
    bool linked = (!tempo || append(bin, &first, &last, tempo))
        && (!rgvolume || append(bin, &first, &last, rgvolume))
        && (!rglimiter || append(bin, &first, &last, rglimiter))
        && (!passthrough || append(bin, &first, &last, passthrough));
    if (!linked || !first) {
        gst_object_unref(bin);
        return NULL;
    }
    GstPad *sink = gst_element_get_static_pad(first, "sink");
    GstPad *src = gst_element_get_static_pad(last, "src");
    gst_element_add_pad(bin, gst_ghost_pad_new("sink", sink));
    gst_element_add_pad(bin, gst_ghost_pad_new("src", src));
    gst_object_unref(sink);
    gst_object_unref(src);
    if (rgvolume) {
        rp_map_r128_gains(rgvolume);
        *leveller = GST_ELEMENT(gst_object_ref(rgvolume));
    }
    if (rglimiter) *limiter = GST_ELEMENT(gst_object_ref(rglimiter));
    return bin;
}

GstElement *rp_audio_output_new(GstElement *sink, GstElement **gain, GstElement **equalizer) {
    *equalizer = NULL;
    GstElement *bin = gst_bin_new("reprise-output");
    GstElement *volume = gst_element_factory_make("volume", "reprise-gain");
    /* The equalizer stays in the chain (passthrough while every band is at 0 dB), so switching it on, off or to
       other gains during playback never relinks anything. Without plugins-good there is none. */
    GstElement *bands = gst_element_factory_make("equalizer-nbands", "reprise-equalizer");
    if (!bin || !volume) {
        if (bin) gst_object_unref(bin);
        if (volume) gst_object_unref(volume);
        if (bands) gst_object_unref(bands);
        return NULL;
    }
    GstElement *first = volume;
    if (bands) {
        g_object_set(bands, "num-bands", 10, NULL);
        gst_bin_add(GST_BIN(bin), bands);
        first = bands;
    }
    gst_bin_add_many(GST_BIN(bin), volume, sink, NULL);
    if ((bands && !gst_element_link(bands, volume)) || !gst_element_link(volume, sink)) {
        gst_object_unref(bin);
        return NULL;
    }
    GstPad *pad = gst_element_get_static_pad(first, "sink");
    gst_element_add_pad(bin, gst_ghost_pad_new("sink", pad));
    gst_object_unref(pad);
    *gain = GST_ELEMENT(gst_object_ref(volume));
    if (bands) *equalizer = GST_ELEMENT(gst_object_ref(bands));
    return bin;
}

void rp_equalizer_set_bands(GstElement *equalizer, const double *frequencies, const double *gains, int count, double bandwidth_ratio) {
    for (int index = 0; index < count; index++) {
        GObject *band = gst_child_proxy_get_child_by_index(GST_CHILD_PROXY(equalizer), (guint)index);
        if (!band) continue;
        /* type 0: a peak filter (equalizer-nbands makes its first and last bands shelves by default). */
        g_object_set(band, "type", 0, "freq", frequencies[index], "bandwidth", frequencies[index] * bandwidth_ratio,
                     "gain", gains[index], NULL);
        g_object_unref(band);
    }
}
