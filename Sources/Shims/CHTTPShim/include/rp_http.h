#ifndef RP_HTTP_H
#define RP_HTTP_H
#include <stddef.h>

/* One HTTP POST with libcurl, loaded with dlopen the first time it is needed: a service that never sends
   anything maps none of libcurl or its TLS libraries. Blocking: call it from a worker thread. */

/* Whether libcurl could be loaded; when not, why (into why, NUL-terminated). */
int rp_http_available(char *why, size_t why_size);

typedef struct rp_http_answer {
    long status;           /* the last response's status (0: none came) */
    unsigned char *body;   /* malloc'd, body_length bytes (free with rp_http_answer_free) */
    size_t body_length;
    char *headers;         /* the last response's header lines, as received */
    size_t headers_length;
    int truncated;         /* the body or headers were longer than allowed: the transfer was cut */
    char error[256];       /* when the request failed (no answer): why */
} rp_http_answer;

/* POSTs body to url with the given header lines ("Name: value"); connect and total timeouts in seconds; answers
   longer than max_body bytes (or headers longer than 64 KiB) are cut and marked. Returns 0 when an answer came,
   -1 otherwise (error says why). Redirects are not followed; only http and https are allowed. */
int rp_http_post(const char *url, const char *const *header_lines, size_t header_count,
                 const char *body, size_t body_length, const char *user_agent,
                 long connect_timeout, long total_timeout, size_t max_body, rp_http_answer *answer);

void rp_http_answer_free(rp_http_answer *answer);

#endif
