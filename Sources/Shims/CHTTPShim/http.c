#include "rp_http.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libcurl's functions, looked up once. */
static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    int loaded;
    char why[200];
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(curl.why, sizeof curl.why, "libcurl.so.4 could not be loaded: %s", dlerror());
        return;
    }
#define FIND(field, symbol) \
    if (!(*(void **)&curl.field = dlsym(library, symbol))) { \
        snprintf(curl.why, sizeof curl.why, "libcurl lacks %s", symbol); \
        return; \
    }
    FIND(global_init, "curl_global_init")
    FIND(easy_init, "curl_easy_init")
    FIND(easy_setopt, "curl_easy_setopt")
    FIND(easy_perform, "curl_easy_perform")
    FIND(easy_getinfo, "curl_easy_getinfo")
    FIND(easy_cleanup, "curl_easy_cleanup")
    FIND(easy_strerror, "curl_easy_strerror")
    FIND(slist_append, "curl_slist_append")
    FIND(slist_free_all, "curl_slist_free_all")
#undef FIND
    if (curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        snprintf(curl.why, sizeof curl.why, "curl_global_init failed");
        return;
    }
    curl.loaded = 1;
}

int rp_http_available(char *why, size_t why_size) {
    pthread_once(&load_once, load);
    if (!curl.loaded && why && why_size > 0) snprintf(why, why_size, "%s", curl.why);
    return curl.loaded;
}

/* A growing buffer with a limit: past it, the transfer is cut. */
typedef struct {
    char *bytes;
    size_t length;
    size_t limit;
    int over;
} buffer;

static size_t append(buffer *into, const char *data, size_t count) {
    if (count > into->limit - into->length) {
        into->over = 1;
        return 0; /* libcurl ends the transfer with CURLE_WRITE_ERROR */
    }
    char *grown = realloc(into->bytes, into->length + count + 1);
    if (!grown) return 0;
    memcpy(grown + into->length, data, count);
    into->bytes = grown;
    into->length += count;
    into->bytes[into->length] = 0;
    return count;
}

static size_t on_body(char *data, size_t size, size_t count, void *user) {
    return append(user, data, size * count);
}

static size_t on_header(char *data, size_t size, size_t count, void *user) {
    buffer *headers = user;
    /* A new status line (after 100 Continue, say): only the last response's headers are kept. */
    if (size * count >= 5 && memcmp(data, "HTTP/", 5) == 0) headers->length = 0;
    return append(headers, data, size * count);
}

static int allowed_scheme(const char *url) {
    return strncasecmp(url, "http://", 7) == 0 || strncasecmp(url, "https://", 8) == 0;
}

int rp_http_post(const char *url, const char *const *header_lines, size_t header_count,
                 const char *body, size_t body_length, const char *user_agent,
                 long connect_timeout, long total_timeout, size_t max_body, rp_http_answer *answer) {
    memset(answer, 0, sizeof *answer);
    if (!rp_http_available(answer->error, sizeof answer->error)) return -1;
    if (!allowed_scheme(url)) {
        snprintf(answer->error, sizeof answer->error, "only http and https addresses are used");
        return -1;
    }
    CURL *handle = curl.easy_init();
    if (!handle) {
        snprintf(answer->error, sizeof answer->error, "curl_easy_init failed");
        return -1;
    }
    struct curl_slist *list = NULL;
    int ok = 1;
    for (size_t i = 0; i < header_count && ok; i++) {
        struct curl_slist *longer = curl.slist_append(list, header_lines[i]);
        if (longer) list = longer; else ok = 0;
    }
    /* No "Expect: 100-continue": the body goes at once. */
    struct curl_slist *longer = ok ? curl.slist_append(list, "Expect:") : NULL;
    if (longer) list = longer; else ok = 0;
    buffer received = {0, 0, max_body, 0}, headers = {0, 0, 65536, 0};
    CURLcode code = CURLE_OUT_OF_MEMORY;
    if (ok) {
        curl.easy_setopt(handle, CURLOPT_URL, url);
        curl.easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
        curl.easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
        curl.easy_setopt(handle, CURLOPT_FOLLOWLOCATION, 0L);
        curl.easy_setopt(handle, CURLOPT_POST, 1L);
        curl.easy_setopt(handle, CURLOPT_POSTFIELDS, body);
        curl.easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body_length);
        curl.easy_setopt(handle, CURLOPT_HTTPHEADER, list);
        curl.easy_setopt(handle, CURLOPT_USERAGENT, user_agent);
        curl.easy_setopt(handle, CURLOPT_CONNECTTIMEOUT, connect_timeout);
        curl.easy_setopt(handle, CURLOPT_TIMEOUT, total_timeout);
        curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, on_body);
        curl.easy_setopt(handle, CURLOPT_WRITEDATA, &received);
        curl.easy_setopt(handle, CURLOPT_HEADERFUNCTION, on_header);
        curl.easy_setopt(handle, CURLOPT_HEADERDATA, &headers);
        code = curl.easy_perform(handle);
    }
    long status = 0;
    curl.easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &status);
    curl.easy_cleanup(handle);
    curl.slist_free_all(list);
    answer->truncated = received.over || headers.over;
    if (code != CURLE_OK && !(answer->truncated && status > 0)) {
        snprintf(answer->error, sizeof answer->error, "%s",
                 answer->truncated ? "the answer was too long" : curl.easy_strerror(code));
        free(received.bytes);
        free(headers.bytes);
        return -1;
    }
    answer->status = status;
    answer->body = (unsigned char *)received.bytes;
    answer->body_length = received.length;
    answer->headers = headers.bytes;
    answer->headers_length = headers.length;
    return 0;
}

void rp_http_answer_free(rp_http_answer *answer) {
    free(answer->body);
    free(answer->headers);
    answer->body = NULL;
    answer->headers = NULL;
}
