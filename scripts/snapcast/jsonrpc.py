"""One newline-delimited JSON-RPC connection to a snapserver control port, for the scenario and the replay."""
import json
import socket
import sys


class Connection:
    def __init__(self, port):
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.buffered = b""

    def send_line(self, line):
        self.socket.sendall((line + "\n").encode())

    def answer(self, request_id):
        """The next message that answers `request_id` (notifications and other answers are passed over)."""
        while True:
            while b"\n" not in self.buffered:
                data = self.socket.recv(65536)
                if not data:
                    sys.exit("snapserver closed the connection")
                self.buffered += data
            line, self.buffered = self.buffered.split(b"\n", 1)
            message = json.loads(line)
            if "id" in message and message.get("id") == request_id:
                return message
