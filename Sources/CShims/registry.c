#include "CShims.h"
#include <string.h>

static void collect_sink_caps(GstElementFactory *factory, gboolean audio_only, GHashTable *seen) {
    for (const GList *t = gst_element_factory_get_static_pad_templates(factory); t; t = t->next) {
        GstStaticPadTemplate *templ = t->data;
        if (templ->direction != GST_PAD_SINK) continue;
        GstCaps *caps = gst_static_caps_get(&templ->static_caps);
        if (!caps) continue;
        for (guint i = 0; i < gst_caps_get_size(caps); i++) {
            const char *name = gst_structure_get_name(gst_caps_get_structure(caps, i));
            if (!name || strcmp(name, "audio/x-raw") == 0 || strcmp(name, "video/x-raw") == 0) continue;
            if (audio_only && strncmp(name, "audio/", 6) != 0) continue;
            if (!audio_only && strncmp(name, "audio/", 6) != 0 && strncmp(name, "video/", 6) != 0 &&
                strncmp(name, "application/", 12) != 0) continue;
            g_hash_table_add(seen, g_strdup(name));
        }
        gst_caps_unref(caps);
    }
}

char **rp_decodable_media_types(void) {
    GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    GList *demuxers = gst_element_factory_list_get_elements(GST_ELEMENT_FACTORY_TYPE_DEMUXER, GST_RANK_MARGINAL);
    for (GList *l = demuxers; l; l = l->next) collect_sink_caps(l->data, FALSE, seen);
    gst_plugin_feature_list_free(demuxers);
    GList *decoders = gst_element_factory_list_get_elements(
        GST_ELEMENT_FACTORY_TYPE_DECODER | GST_ELEMENT_FACTORY_TYPE_PARSER, GST_RANK_MARGINAL);
    for (GList *l = decoders; l; l = l->next) collect_sink_caps(l->data, TRUE, seen);
    gst_plugin_feature_list_free(decoders);
    guint count = 0;
    gchar **keys = (gchar **)g_hash_table_get_keys_as_array(seen, &count);
    char **result = g_new0(char *, count + 1);
    for (guint i = 0; i < count; i++) result[i] = g_strdup(keys[i]);
    g_free(keys);
    g_hash_table_destroy(seen);
    return result;
}
