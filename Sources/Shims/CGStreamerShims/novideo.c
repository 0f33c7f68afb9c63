#include "CGStreamerShims.h"

#include <string.h>

/* Sound only, for a process with no display: playbin must never pick a video sink by itself (with plugins-bad
 * installed it tries dfbvideosink, which crashes the process inside DirectFB) and no video is decoded. The video
 * sink is a fakesink, and every decodebin inside playbin exposes a video stream still encoded instead of plugging
 * a decoder: the fakesink takes it as it is. Until rp_playbin_decode_video turns decoding back on. */

static const char *decode_video_key = "rp-decode-video";

static gboolean is_video_decoder(GstElementFactory *factory) {
    const gchar *klass = gst_element_factory_get_metadata(factory, GST_ELEMENT_METADATA_KLASS);
    return klass && strstr(klass, "Decoder") && strstr(klass, "Video");
}

/* decodebin's autoplug-select, on a streaming thread; a later handler runs only while earlier ones say TRY. */
static gint skip_video_decoders(GstElement *decodebin, GstPad *pad, GstCaps *caps, GstElementFactory *factory, gpointer playbin) {
    (void)decodebin; (void)pad; (void)caps;
    if (g_object_get_data(G_OBJECT(playbin), decode_video_key) || !is_video_decoder(factory)) return 0; /* TRY */
    return 1; /* EXPOSE: the encoded stream goes to the fakesink */
}

static void element_added(GstBin *bin, GstBin *sub_bin, GstElement *element, gpointer playbin) {
    (void)bin; (void)sub_bin;
    if (strcmp(G_OBJECT_TYPE_NAME(element), "GstDecodeBin") == 0)
        g_signal_connect_object(element, "autoplug-select", G_CALLBACK(skip_video_decoders), playbin, 0);
}

bool rp_playbin_sound_only(GstElement *playbin) {
    GstElement *sink = gst_element_factory_make("fakesink", "no-video");
    if (!sink) return false;
    g_object_set(sink, "sync", FALSE, "async", FALSE, NULL);
    g_object_set(playbin, "video-sink", sink, NULL);
    g_signal_connect(playbin, "deep-element-added", G_CALLBACK(element_added), playbin);
    return true;
}

void rp_playbin_decode_video(GstElement *playbin) {
    g_object_set_data(G_OBJECT(playbin), decode_video_key, GINT_TO_POINTER(1));
}
