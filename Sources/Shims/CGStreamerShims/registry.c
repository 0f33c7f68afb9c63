#include "CGStreamerShims.h"
#include <string.h>

gboolean rp_element_accepts(const char *caps_string, gboolean demuxer) {
    GstCaps *caps = gst_caps_from_string(caps_string);
    if (!caps) return FALSE;
    GstElementFactoryListType type = demuxer ? GST_ELEMENT_FACTORY_TYPE_DEMUXER : GST_ELEMENT_FACTORY_TYPE_DECODER;
    GList *factories = gst_element_factory_list_get_elements(type, GST_RANK_MARGINAL);
    GList *accepting = gst_element_factory_list_filter(factories, caps, GST_PAD_SINK, FALSE);
    gboolean found = accepting != NULL;
    gst_plugin_feature_list_free(accepting);
    gst_plugin_feature_list_free(factories);
    gst_caps_unref(caps);
    return found;
}
