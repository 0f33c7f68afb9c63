// reprise-tag-reader: the process TagLib runs in. The service (TagLibKit) starts it with a Unix socket as its
// standard input and output, sends it a request and a file's descriptor at a time, and ends it by closing the socket
// once idle. It opens no file itself.
#include <CTagLibShim.h>
#include <CTagReaderClient.h>

#include <stdio.h>
#include <sys/socket.h>
#include <sys/stat.h>

int main(int argc, char **argv) {
    (void)argv;
    struct stat standardInput;
    if (argc != 1 || fstat(0, &standardInput) != 0 || !S_ISSOCK(standardInput.st_mode)) {
        fputs("reprise-tag-reader: started by the Reprise service, with a socket as its standard input\n", stderr);
        return 2;
    }
    return rp_tag_reader_serve(0, rp_taglib_read);
}
