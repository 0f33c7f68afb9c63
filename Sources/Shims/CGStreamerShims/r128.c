/* Opus R128 gains as ReplayGain tags (see rp_map_r128_gains in CGStreamerShims.h). */
#include "CGStreamerShims.h"
#include <stdlib.h>
#include <string.h>

/* "R128_TRACK_GAIN=-1536" → -1536, when `comment` is `key`=integer. */
static bool parse_gain(const gchar *comment, const gchar *key, long *value) {
    gsize length = strlen(key);
    if (g_ascii_strncasecmp(comment, key, length) != 0 || comment[length] != '=') return false;
    const gchar *number = comment + length + 1;
    gchar *end = NULL;
    long parsed = strtol(number, &end, 10);
    if (end == number || *end != '\0' || parsed < -32768 || parsed > 32767) return false;
    *value = parsed;
    return true;
}

static GstPadProbeReturn map_gains(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void)pad;
    (void)data;
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    if (!event || GST_EVENT_TYPE(event) != GST_EVENT_TAG) return GST_PAD_PROBE_OK;
    GstTagList *list = NULL;
    gst_event_parse_tag(event, &list);
    bool has_track = false, has_album = false;
    long track = 0, album = 0;
    guint count = gst_tag_list_get_tag_size(list, GST_TAG_EXTENDED_COMMENT);
    for (guint index = 0; index < count; index++) {
        const gchar *comment = NULL;
        if (!gst_tag_list_peek_string_index(list, GST_TAG_EXTENDED_COMMENT, index, &comment) || !comment) continue;
        if (parse_gain(comment, "R128_TRACK_GAIN", &track)) has_track = true;
        if (parse_gain(comment, "R128_ALBUM_GAIN", &album)) has_album = true;
    }
    gdouble existing;
    if (has_track && gst_tag_list_get_double(list, GST_TAG_TRACK_GAIN, &existing)) has_track = false;
    if (has_album && gst_tag_list_get_double(list, GST_TAG_ALBUM_GAIN, &existing)) has_album = false;
    if (!has_track && !has_album) return GST_PAD_PROBE_OK;
    /* Q7.8 dB towards -23 LUFS (RFC 7845); ReplayGain 2 aims at -18 LUFS, 5 dB louder. */
    GstTagList *copy = gst_tag_list_copy(list);
    if (has_track) gst_tag_list_add(copy, GST_TAG_MERGE_REPLACE, GST_TAG_TRACK_GAIN, track / 256.0 + 5.0, NULL);
    if (has_album) gst_tag_list_add(copy, GST_TAG_MERGE_REPLACE, GST_TAG_ALBUM_GAIN, album / 256.0 + 5.0, NULL);
    GstEvent *replacement = gst_event_new_tag(copy); /* takes the list */
    gst_event_unref(event);
    GST_PAD_PROBE_INFO_DATA(info) = replacement;
    return GST_PAD_PROBE_OK;
}

bool rp_map_r128_gains(GstElement *element) {
    GstPad *pad = gst_element_get_static_pad(element, "sink");
    if (!pad) return false;
    gulong id = gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, map_gains, NULL, NULL);
    gst_object_unref(pad);
    return id != 0;
}
