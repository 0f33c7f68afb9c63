// reprise-tag-reader: the process TagLib runs in. The service (TagLibKit) starts it with a Unix socket as its
// standard input and output, sends it a request and a file's descriptor at a time, and ends it by closing the socket
// once idle. It opens no file itself.
#include <CAVFormat.h>
#include <CTagLibShim.h>
#include <CTagReaderClient.h>

#include <stdio.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>

int main(int argc, char **argv) {
    (void)argv;
    struct stat standardInput;
    if (argc != 1 || fstat(0, &standardInput) != 0 || !S_ISSOCK(standardInput.st_mode)) {
        fputs("reprise-tag-reader: started by the Reprise service, with a socket as its standard input\n", stderr);
        return 2;
    }
    // TagLib makes an object of every frame, atom and comment: a crafted tag of a million tiny frames in a 16 MiB
    // MP3 took 955 MiB. The address space is bounded instead (a failed allocation throws, is caught, and that file is
    // not read); the largest real tags (big covers) stay far below it, the read budget being 128 MiB. libavformat,
    // opened when a file mpd reads with FFmpeg comes, maps about 190 MiB of libraries: the bound then grows by
    // RP_AV_ADDRESS_SPACE (up to the hard limit set here, never above the one inherited: only lowering it is allowed).
    const rlim_t bound = (rlim_t)384 << 20, roomForFFmpeg = bound + RP_AV_ADDRESS_SPACE;
    struct rlimit limit;
    if (getrlimit(RLIMIT_AS, &limit) == 0 && (limit.rlim_max == RLIM_INFINITY || limit.rlim_max > bound)) {
        limit.rlim_cur = bound;
        if (limit.rlim_max == RLIM_INFINITY || limit.rlim_max > roomForFFmpeg) limit.rlim_max = roomForFFmpeg;
        setrlimit(RLIMIT_AS, &limit);
    }
    return rp_tag_reader_serve(0, rp_taglib_read);
}
