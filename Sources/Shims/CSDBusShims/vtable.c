#include "CSDBusShims.h"
#include <stdlib.h>
#include <string.h>

struct rp_vtable {
    sd_bus_vtable *entries;
    size_t count;
    size_t capacity;
    char **strings;      /* every string the entries point at, freed with the table */
    size_t string_count;
};

static const char *keep(rp_vtable *table, char *copy) {
    table->strings = realloc(table->strings, sizeof(char *) * (table->string_count + 1));
    if (!table->strings || !copy) abort();
    table->strings[table->string_count++] = copy;
    return copy;
}

static const char *keep_string(rp_vtable *table, const char *s) { return keep(table, strdup(s ? s : "")); }

/* Turns "a,b" + "c" into "a\0b\0c\0\0", the layout sd-bus expects for argument names. */
static const char *keep_names(rp_vtable *table, const char *in_names, const char *out_names) {
    size_t in_len = in_names ? strlen(in_names) : 0, out_len = out_names ? strlen(out_names) : 0;
    char *buffer = calloc(in_len + out_len + 3, 1);
    if (!buffer) abort();
    char *cursor = buffer;
    const char *parts[2] = {in_names ? in_names : "", out_names ? out_names : ""};
    for (int p = 0; p < 2; p++) {
        size_t len = strlen(parts[p]);
        if (len == 0) continue;
        for (size_t i = 0; i < len; i++) *cursor++ = parts[p][i] == ',' ? '\0' : parts[p][i];
        *cursor++ = '\0';
    }
    return keep(table, buffer);
}

static sd_bus_vtable *append(rp_vtable *table) {
    if (table->count == table->capacity) {
        table->capacity = table->capacity ? table->capacity * 2 : 16;
        table->entries = realloc(table->entries, sizeof(sd_bus_vtable) * table->capacity);
        if (!table->entries) abort();
    }
    sd_bus_vtable *entry = &table->entries[table->count++];
    memset(entry, 0, sizeof(*entry));
    return entry;
}

rp_vtable *rp_vtable_new(void) {
    rp_vtable *table = calloc(1, sizeof(rp_vtable));
    if (!table) abort();
    sd_bus_vtable start = SD_BUS_VTABLE_START(0);
    *append(table) = start;
    return table;
}

void rp_vtable_add_method(rp_vtable *table, const char *member, const char *in_signature, const char *in_names,
                          const char *out_signature, const char *out_names, sd_bus_message_handler_t handler) {
    sd_bus_vtable *entry = append(table);
    entry->type = _SD_BUS_VTABLE_METHOD;
    entry->flags = SD_BUS_VTABLE_UNPRIVILEGED;
    entry->x.method.member = keep_string(table, member);
    entry->x.method.signature = keep_string(table, in_signature);
    entry->x.method.result = keep_string(table, out_signature);
    entry->x.method.handler = handler;
    entry->x.method.offset = 0;
    entry->x.method.names = keep_names(table, in_names, out_names);
}

void rp_vtable_add_property(rp_vtable *table, const char *member, const char *signature,
                            sd_bus_property_get_t getter, sd_bus_property_set_t setter, rp_property_emits emits) {
    sd_bus_vtable *entry = append(table);
    entry->type = setter ? _SD_BUS_VTABLE_WRITABLE_PROPERTY : _SD_BUS_VTABLE_PROPERTY;
    switch (emits) {
    case RP_PROPERTY_EMITS_CHANGE: entry->flags = SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE; break;
    case RP_PROPERTY_EMITS_INVALIDATION: entry->flags = SD_BUS_VTABLE_PROPERTY_EMITS_INVALIDATION; break;
    case RP_PROPERTY_CONST: entry->flags = SD_BUS_VTABLE_PROPERTY_CONST; break;
    default: entry->flags = 0; break;
    }
    if (setter) entry->flags |= SD_BUS_VTABLE_UNPRIVILEGED;
    entry->x.property.member = keep_string(table, member);
    entry->x.property.signature = keep_string(table, signature);
    entry->x.property.get = getter;
    entry->x.property.set = setter;
    entry->x.property.offset = 0;
}

void rp_vtable_add_signal(rp_vtable *table, const char *member, const char *signature, const char *names) {
    sd_bus_vtable *entry = append(table);
    entry->type = _SD_BUS_VTABLE_SIGNAL;
    entry->x.signal.member = keep_string(table, member);
    entry->x.signal.signature = keep_string(table, signature);
    entry->x.signal.names = keep_names(table, names, NULL);
}

const sd_bus_vtable *rp_vtable_finish(rp_vtable *table) {
    sd_bus_vtable end = SD_BUS_VTABLE_END;
    *append(table) = end;
    return table->entries;
}

void rp_vtable_free(rp_vtable *table) {
    if (!table) return;
    for (size_t i = 0; i < table->string_count; i++) free(table->strings[i]);
    free(table->strings);
    free(table->entries);
    free(table);
}
