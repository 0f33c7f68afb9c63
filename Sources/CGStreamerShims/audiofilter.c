#include "CGStreamerShims.h"

GstElement *rp_audio_filter_new(bool keep_pitch, GstElement **gain) {
    GstElement *bin = gst_bin_new("reprise-audio-filter");
    GstElement *volume = gst_element_factory_make("volume", "reprise-gain");
    if (!bin || !volume) {
        if (bin) gst_object_unref(bin);
        if (volume) gst_object_unref(volume);
        return NULL;
    }
    GstElement *tempo = keep_pitch ? gst_element_factory_make("scaletempo", NULL) : NULL;
    GstElement *first = tempo ? tempo : volume;
    gst_bin_add(GST_BIN(bin), volume);
    if (tempo) {
        gst_bin_add(GST_BIN(bin), tempo);
        if (!gst_element_link(tempo, volume)) {
            gst_object_unref(bin);
            return NULL;
        }
    }
    GstPad *sink = gst_element_get_static_pad(first, "sink");
    GstPad *src = gst_element_get_static_pad(volume, "src");
    gst_element_add_pad(bin, gst_ghost_pad_new("sink", sink));
    gst_element_add_pad(bin, gst_ghost_pad_new("src", src));
    gst_object_unref(sink);
    gst_object_unref(src);
    *gain = GST_ELEMENT(gst_object_ref(volume));
    return bin;
}
