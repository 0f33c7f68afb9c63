"""MPD transcripts: what clients sent to a server and what it answered, in the order the proxy saw it.

A transcript is text, one event per line: `N> LINE` (connection N sent LINE), `N< LINE` (the server answered LINE on
connection N), `N+` (connection N opened: the greeting is not kept), `N-` (connection N closed), `# …` a comment.
Bytes that are not UTF-8 are written `\\xNN` and a backslash `\\\\`; a binary chunk's bytes are written as one line,
`N< <binary SIZE sha256:HEX>`. Used by record.py (which writes them) and replay.py (which reads them).
"""
import hashlib
import select


def escape(data: bytes) -> str:
    pieces, pos = [], 0
    while pos < len(data):
        try:
            pieces.append(data[pos:].decode("utf-8").replace("\\", "\\\\"))
            break
        except UnicodeDecodeError as error:
            pieces.append(data[pos:pos + error.start].decode("utf-8").replace("\\", "\\\\"))
            pieces += ["\\x%02X" % byte for byte in data[pos + error.start:pos + error.end]]
            pos += error.end
    return "".join(pieces)


def unescape(text: str) -> bytes:
    out = bytearray()
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\" and text[i + 1:i + 2] == "\\":
            out += b"\\"
            i += 2
        elif c == "\\" and text[i + 1:i + 2] == "x":
            out.append(int(text[i + 2:i + 4], 16))
            i += 4
        else:
            out += c.encode("utf-8")
            i += 1
    return bytes(out)


def binary_line(payload: bytes) -> bytes:
    return b"<binary %d sha256:%s>" % (len(payload), hashlib.sha256(payload).hexdigest()[:16].encode())


class ReplyReader:
    """Reads a server's lines from a socket, turning each binary chunk into one `<binary …>` line."""

    def __init__(self, sock):
        self.sock = sock
        self.buffer = b""
        self.pending_binary = None

    def _fill(self):
        data = self.sock.recv(65536)
        if not data:
            raise EOFError
        self.buffer += data

    def has_data(self, seconds):
        """Whether something arrives within `seconds`."""
        if self.buffer:
            return True
        return bool(select.select([self.sock], [], [], seconds)[0])

    def line(self):
        """The next line without its line feed (bytes), or None at the end."""
        try:
            if self.pending_binary is not None:
                size, self.pending_binary = self.pending_binary, None
                while len(self.buffer) < size + 1:
                    self._fill()
                payload, self.buffer = self.buffer[:size], self.buffer[size + 1:]
                return binary_line(payload)
            while b"\n" not in self.buffer:
                self._fill()
        except EOFError:
            return None
        line, self.buffer = self.buffer.split(b"\n", 1)
        if line.startswith(b"binary: "):
            self.pending_binary = int(line[8:])
        return line


def ends_reply(line: bytes) -> bool:
    return line == b"OK" or line.startswith(b"ACK ")


def parse(path):
    """The events of a transcript: (connection, kind, bytes) with kind one of > < + -."""
    events = []
    with open(path, encoding="utf-8") as f:
        for raw in f:
            raw = raw.rstrip("\n")
            if not raw or raw.startswith("#"):
                continue
            i = 0
            while raw[i].isdigit():
                i += 1
            connection, kind = int(raw[:i]), raw[i]
            body = raw[i + 2:] if len(raw) > i + 1 else ""
            events.append((connection, kind, unescape(body)))
    return events
