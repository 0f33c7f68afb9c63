/* Keeps oversized tag strings from reaching a sink (see rp_limit_tag_strings in CGStreamerShims.h). */
#include "CGStreamerShims.h"
#include <string.h>

/* Multiple values of a tag (2,000 artists, say) reach the sound server joined into one string. */
#define RP_MAX_TAG_VALUES 16

typedef struct {
    guint max_bytes;
    gboolean too_long;
    GstTagList *copy;
} rp_tag_limit;

static void find_long_string(const GstTagList *list, const gchar *tag, gpointer data) {
    rp_tag_limit *limit = data;
    if (limit->too_long || gst_tag_get_type(tag) != G_TYPE_STRING) return;
    guint count = gst_tag_list_get_tag_size(list, tag);
    if (count > RP_MAX_TAG_VALUES) {
        limit->too_long = TRUE;
        return;
    }
    for (guint index = 0; index < count; index++) {
        const gchar *text = NULL;
        if (gst_tag_list_peek_string_index(list, tag, index, &text) && text && strlen(text) > limit->max_bytes) {
            limit->too_long = TRUE;
            return;
        }
    }
}

static void copy_cut(const GstTagList *list, const gchar *tag, gpointer data) {
    rp_tag_limit *limit = data;
    guint count = gst_tag_list_get_tag_size(list, tag);
    if (count > RP_MAX_TAG_VALUES && gst_tag_get_type(tag) == G_TYPE_STRING) count = RP_MAX_TAG_VALUES;
    for (guint index = 0; index < count; index++) {
        const GValue *value = gst_tag_list_get_value_index(list, tag, index);
        if (!value) continue;
        if (G_VALUE_HOLDS_STRING(value) && g_value_get_string(value) && strlen(g_value_get_string(value)) > limit->max_bytes) {
            const gchar *text = g_value_get_string(value);
            const gchar *end = text + limit->max_bytes;
            while (end > text && ((guchar)*end & 0xC0) == 0x80) end--; /* not inside a UTF-8 sequence */
            gchar *cut = g_strndup(text, (gsize)(end - text));
            gst_tag_list_add(limit->copy, GST_TAG_MERGE_APPEND, tag, cut, NULL);
            g_free(cut);
        } else {
            gst_tag_list_add_value(limit->copy, GST_TAG_MERGE_APPEND, tag, value);
        }
    }
}

static GstPadProbeReturn limit_tags(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void)pad;
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    if (!event || GST_EVENT_TYPE(event) != GST_EVENT_TAG) return GST_PAD_PROBE_OK;
    GstTagList *list = NULL;
    gst_event_parse_tag(event, &list);
    rp_tag_limit limit = { .max_bytes = GPOINTER_TO_UINT(data), .too_long = FALSE, .copy = NULL };
    gst_tag_list_foreach(list, find_long_string, &limit);
    if (!limit.too_long) return GST_PAD_PROBE_OK;
    limit.copy = gst_tag_list_new_empty();
    gst_tag_list_set_scope(limit.copy, gst_tag_list_get_scope(list));
    gst_tag_list_foreach(list, copy_cut, &limit);
    GstEvent *replacement = gst_event_new_tag(limit.copy); /* takes the list */
    gst_event_unref(event);
    GST_PAD_PROBE_INFO_DATA(info) = replacement;
    return GST_PAD_PROBE_OK;
}

bool rp_limit_tag_strings(GstElement *element, unsigned max_bytes) {
    GstPad *pad = gst_element_get_static_pad(element, "sink");
    if (!pad) return false;
    gulong id = gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, limit_tags, GUINT_TO_POINTER(max_bytes), NULL);
    gst_object_unref(pad);
    return id != 0;
}
