// The service's side of the tag reader process (start it, ask it, check its answers) and the process's own loop.
// TagLib parses files anyone can put in a music folder: in a process of its own, a crafted file that crashes or
// hangs it costs that process, and the service maps none of TagLib or the C++ library it starts.
#define _GNU_SOURCE
#include "CTagReaderClient.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

int rp_taglib_reads_extension(const char *extension) {
    static const char *const known[] = {"mp3", "mp2", "flac", "ogg", "oga", "opus", "spx", "m4a", "m4b", "mp4", "wav",
                                        "aif", "aiff", "aifc", "ape", "wv", "mpc", "tta", "wma", "asf"};
    if (!extension) return 0;
    for (size_t i = 0; i < sizeof known / sizeof *known; i++)
        if (strcmp(extension, known[i]) == 0) return 1;
    return 0;
}

void rp_taglib_free(rp_taglib_file *file) {
    if (!file) return;
    free(file->properties);
    free(file->picture);
    memset(file, 0, sizeof *file);
}

int rp_tag_reader_start(const char *path, int *connection, pid_t *pid) {
    int ends[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) return errno;
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attributes);
    posix_spawn_file_actions_adddup2(&actions, ends[1], 0);
    // The service blocks the signals its loop handles; the reader starts with none blocked and default handlers.
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &all);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    char *const arguments[] = {(char *)path, NULL};
    int failed = posix_spawn(pid, path, &actions, &attributes, arguments, environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    close(ends[1]);
    if (failed) {
        close(ends[0]);
        return failed;
    }
    *connection = ends[0];
    return 0;
}

static int64_t now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/// Reads exactly `count` bytes before `deadline` (CLOCK_MONOTONIC, ms); 0, or -1 (closed, failed or too late).
/// What is there already is taken without waiting; only when nothing is does it poll (answers sent a window at a
/// time are mostly there by the time they are read: one system call for each instead of three).
static int read_all(int connection, void *buffer, size_t count, int64_t deadline) {
    char *at = buffer;
    while (count > 0) {
        ssize_t got = recv(connection, at, count, MSG_DONTWAIT);
        if (got > 0) {
            at += got;
            count -= (size_t)got;
            continue;
        }
        if (got == 0) return -1;
        if (errno == EINTR) continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK) return -1;
        int64_t left = deadline - now_ms();
        if (left <= 0) return -1;
        struct pollfd wait = {.fd = connection, .events = POLLIN};
        int ready = poll(&wait, 1, left > 60000 ? 60000 : (int)left);
        if (ready < 0 && errno != EINTR) return -1;
    }
    return 0;
}

static int write_all(int connection, const void *buffer, size_t count) {
    const char *at = buffer;
    while (count > 0) {
        ssize_t sent = send(connection, at, count, MSG_NOSIGNAL);
        if (sent < 0 && errno == EINTR) continue;
        if (sent <= 0) return -1;
        at += sent;
        count -= (size_t)sent;
    }
    return 0;
}

/// The most property bytes a reply may announce for these limits: every value and the synced lyrics as a key and a
/// value record of at most `value_limit` bytes each, never more than `properties_limit` (when not 0), and never more
/// than 256 MiB (also when that sum overflows).
static size_t properties_bound(size_t value_limit, size_t value_count_limit, size_t properties_limit) {
    size_t record = 0, records = 0, bound = 0;
    if (__builtin_add_overflow(value_limit, (size_t)4, &record) ||
        __builtin_add_overflow(value_count_limit, (size_t)1, &records) ||
        __builtin_mul_overflow(records, (size_t)2, &records) || __builtin_mul_overflow(record, records, &bound))
        bound = SIZE_MAX;
    if (properties_limit != 0 && properties_limit < bound) bound = properties_limit;
    return bound < (256u << 20) ? bound : (256u << 20);
}

int rp_tag_reader_send(int connection, int descriptor, int64_t size, const char *extension, size_t picture_limit,
                       size_t value_limit, size_t value_count_limit, size_t properties_limit, uint32_t flags) {
    if (!extension || !rp_taglib_reads_extension(extension)) return -1;
    if (size < 0) return -2;
    rp_tag_request request = {.magic = RP_TAG_REQUEST_MAGIC, .flags = flags, .size = size, .picture_limit = picture_limit,
                              .value_limit = value_limit, .value_count_limit = value_count_limit,
                              .properties_limit = properties_limit};
    strncpy(request.extension, extension, sizeof request.extension - 1);

    // The request, with the descriptor riding on it.
    union {
        struct cmsghdr header;
        char space[CMSG_SPACE(sizeof(int))];
    } control;
    memset(&control, 0, sizeof control);
    struct iovec part = {.iov_base = &request, .iov_len = sizeof request};
    struct msghdr message = {.msg_iov = &part, .msg_iovlen = 1, .msg_control = control.space,
                             .msg_controllen = sizeof control.space};
    struct cmsghdr *rights = CMSG_FIRSTHDR(&message);
    rights->cmsg_level = SOL_SOCKET;
    rights->cmsg_type = SCM_RIGHTS;
    rights->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(rights), &descriptor, sizeof(int));
    ssize_t sent;
    do sent = sendmsg(connection, &message, MSG_NOSIGNAL); while (sent < 0 && errno == EINTR);
    if (sent <= 0) return -3;
    if ((size_t)sent < sizeof request && write_all(connection, (char *)&request + sent, sizeof request - (size_t)sent))
        return -3;
    return 0;
}

int rp_tag_reader_receive(int connection, size_t picture_limit, size_t value_limit, size_t value_count_limit,
                          size_t properties_limit, int timeout_ms, rp_taglib_file *out) {
    // The answer, every size checked against what was asked before anything is allocated.
    memset(out, 0, sizeof *out);
    const int64_t deadline = now_ms() + timeout_ms;
    rp_tag_reply reply;
    if (read_all(connection, &reply, sizeof reply, deadline) != 0) return -3;
    if (reply.status == -1 || reply.status == -2 || reply.status == RP_TAG_TOO_LARGE) return reply.status;
    if (reply.status != 0 || reply.properties_size > properties_bound(value_limit, value_count_limit, properties_limit) ||
        reply.picture_size > picture_limit)
        return -3;
    if (reply.properties_size > 0) {
        out->properties = malloc(reply.properties_size);
        if (!out->properties || read_all(connection, out->properties, reply.properties_size, deadline) != 0) goto failed;
        out->properties_size = reply.properties_size;
    }
    if (reply.picture_size > 0) {
        out->picture = malloc(reply.picture_size);
        if (!out->picture || read_all(connection, out->picture, reply.picture_size, deadline) != 0) goto failed;
        out->picture_size = reply.picture_size;
    }
    out->headers = reply.headers;
    out->headers.properties_in_file_order = reply.headers.properties_in_file_order != 0;
    memcpy(out->picture_type, reply.picture_type, sizeof out->picture_type);
    out->picture_type[sizeof out->picture_type - 1] = 0;
    return 0;
failed:
    rp_taglib_free(out);
    return -3;
}

/// Sends the reply and what it announces in one call where the socket takes it all (one wake-up of the reader
/// instead of one a part); what it does not take is sent after. 0, or -1 when the connection failed.
static int send_reply(int connection, const rp_tag_reply *reply, const rp_taglib_file *file) {
    struct iovec parts[3] = {{.iov_base = (void *)reply, .iov_len = sizeof *reply}};
    int count = 1;
    if (reply->properties_size) parts[count++] = (struct iovec){.iov_base = file->properties, .iov_len = reply->properties_size};
    if (reply->picture_size) parts[count++] = (struct iovec){.iov_base = file->picture, .iov_len = reply->picture_size};
    struct msghdr message = {.msg_iov = parts, .msg_iovlen = (size_t)count};
    ssize_t sent;
    do sent = sendmsg(connection, &message, MSG_NOSIGNAL); while (sent < 0 && errno == EINTR);
    if (sent < 0) return -1;
    size_t skip = (size_t)sent;
    for (int index = 0; index < count; index++) {
        if (skip >= parts[index].iov_len) {
            skip -= parts[index].iov_len;
            continue;
        }
        if (write_all(connection, (char *)parts[index].iov_base + skip, parts[index].iov_len - skip)) return -1;
        skip = 0;
    }
    return 0;
}

int rp_tag_reader_serve(int connection,
                        int (*read_file)(int descriptor, long size, const char *extension, size_t picture_limit,
                                         size_t value_limit, size_t value_count_limit, uint32_t flags, rp_taglib_file *out)) {
    for (;;) {
        rp_tag_request request;
        union {
            struct cmsghdr header;
            char space[CMSG_SPACE(sizeof(int))];
        } control;
        struct iovec part = {.iov_base = &request, .iov_len = sizeof request};
        struct msghdr message = {.msg_iov = &part, .msg_iovlen = 1, .msg_control = control.space,
                                 .msg_controllen = sizeof control.space};
        ssize_t got;
        do got = recvmsg(connection, &message, MSG_CMSG_CLOEXEC); while (got < 0 && errno == EINTR);
        if (got == 0) return 0;
        if (got < 0) return 1;
        int descriptor = -1;
        for (struct cmsghdr *c = CMSG_FIRSTHDR(&message); c; c = CMSG_NXTHDR(&message, c))
            if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS && c->cmsg_len == CMSG_LEN(sizeof(int)))
                memcpy(&descriptor, CMSG_DATA(c), sizeof(int));
        if ((message.msg_flags & MSG_CTRUNC) || descriptor < 0 ||
            ((size_t)got < sizeof request &&
             read_all(connection, (char *)&request + got, sizeof request - (size_t)got, now_ms() + 10000) != 0) ||
            request.magic != RP_TAG_REQUEST_MAGIC || request.size < 0) {
            if (descriptor >= 0) close(descriptor);
            return 1;
        }
        request.extension[sizeof request.extension - 1] = 0;
        rp_taglib_file file;
        memset(&file, 0, sizeof file);
        int status = read_file(descriptor, (long)request.size, request.extension, request.picture_limit,
                               request.value_limit, request.value_count_limit,
                               request.flags & RP_TAG_READ_COMMENTS_AS_WRITTEN, &file);
        close(descriptor);
        rp_tag_reply reply;
        memset(&reply, 0, sizeof reply);
        // -4: the reader's memory ran out on this file. It is answered as not read, and the process ends after the
        // answer: what a failed parse left in its heap is given back to the system, not to the next file.
        reply.status = status == -4 ? -2 : status;
        if (status == 0 && request.properties_limit != 0 && file.properties_size > request.properties_limit)
            reply.status = RP_TAG_TOO_LARGE;
        else if (status == 0) {
            reply.headers = file.headers;
            reply.properties_size = file.properties_size;
            reply.picture_size = file.picture_size;
            memcpy(reply.picture_type, file.picture_type, sizeof reply.picture_type);
        }
        int failed = send_reply(connection, &reply, &file);
        rp_taglib_free(&file);
        if (failed) return 1;
        if (status == -4) return 0;
    }
}
