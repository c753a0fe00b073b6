#!/usr/bin/env python3
"""The delay line of SHAPING=netns on kernels without netem (this machine kind's has none).

Two TUN devices join the server's namespace and the browser's: every IP packet one namespace
sends through its device is read here and written into the other's device after a fixed
one-way delay, in order, like a long cable. The kernels at both ends see a real path with that
delay (TCP's handshake, slow start and ACK clock all pay it); the rate is still limited by tc's
token bucket on the devices' egress, before the packet reaches this program (see netns.js).
The technique is the one of Mahimahi's delay shell; nothing else is done to a packet.

    delay-line.py serve SERVER_TUN BROWSER_TUN CONTROL_SOCKET
        makes both devices (in this process's namespace; the caller moves them), prints
        "ready", and forwards until SIGTERM. A delay is set per direction through
    delay-line.py set CONTROL_SOCKET DOWN_MS UP_MS
        which returns once the line uses the new delays (DOWN: server to browser).
"""

import collections
import contextlib
import fcntl
import os
import select
import signal
import socket
import struct
import sys
import time

TUNSETIFF = 0x400454CA
IFF_TUN = 0x0001
IFF_NO_PI = 0x1000
MAX_PACKET = 65536


def open_tun(name):
    fd = os.open('/dev/net/tun', os.O_RDWR | os.O_NONBLOCK)
    fcntl.ioctl(fd, TUNSETIFF, struct.pack('16sH', name.encode(), IFF_TUN | IFF_NO_PI))
    return fd


class Direction:
    """Packets read from one device, due to be written into the other."""

    def __init__(self, source, target):
        self.source, self.target = source, target
        self.delay = 0.0
        self.queue = collections.deque()
        self.last_due = 0.0
        self.dropped = 0

    def read_all(self, now):
        while True:
            try:
                packet = os.read(self.source, MAX_PACKET)
            except BlockingIOError:
                return
            # Never reorder: a shorter new delay waits for the packets already on the line.
            due = max(now + self.delay, self.last_due)
            self.last_due = due
            self.queue.append((due, packet))

    def write_due(self, now):
        while self.queue and self.queue[0][0] <= now:
            _, packet = self.queue.popleft()
            try:
                os.write(self.target, packet)
            except OSError:
                self.dropped += 1  # the receiving kernel refused it: a loss, as on a real link

    def next_due(self):
        return self.queue[0][0] if self.queue else None


def serve(server_tun, browser_tun, control_path):
    down = Direction(open_tun(server_tun), open_tun(browser_tun))
    up = Direction(down.target, down.source)
    if os.path.exists(control_path):
        os.unlink(control_path)
    control = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    control.bind(control_path)
    control.listen(4)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    # One write, then stdout goes to /dev/null: the caller stops reading once it has the line,
    # and a later write (or, with PYTHONUNBUFFERED, a second write of the same print) would
    # kill the line with EPIPE — and its TUN devices with it.
    os.write(1, b'ready\n')
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.close(devnull)
    readers = {down.source: down, up.source: up}
    try:
        while True:
            now = time.monotonic()
            dues = [d for d in (down.next_due(), up.next_due()) if d is not None]
            timeout = max(0.0, min(dues) - now) if dues else None
            ready, _, _ = select.select([down.source, up.source, control], [], [], timeout)
            now = time.monotonic()
            for fd in ready:
                if fd is control:
                    answer_control(control, down, up)
                else:
                    readers[fd].read_all(now)
            down.write_due(now)
            up.write_due(now)
    finally:
        # SIGTERM ends the loop through sys.exit: the control socket's file goes with it.
        control.close()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(control_path)


def answer_control(control, down, up):
    connection, _ = control.accept()
    with connection:
        request = connection.makefile().readline().split()
        try:
            down_ms, up_ms = (float(value) for value in request)
            if down_ms < 0 or up_ms < 0:
                raise ValueError
        except ValueError:
            connection.sendall(b'error: expected "DOWN_MS UP_MS", two delays >= 0\n')
            return
        down.delay, up.delay = down_ms / 1000, up_ms / 1000
        connection.sendall(f'ok {down_ms:g} {up_ms:g} dropped {down.dropped} {up.dropped}\n'.encode())


def set_delays(control_path, down_ms, up_ms):
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
        connection.connect(control_path)
        connection.sendall(f'{down_ms} {up_ms}\n'.encode())
        answer = connection.makefile().readline().strip()
    if not answer.startswith('ok'):
        sys.exit(f'delay-line: {answer}')
    print(answer)


if __name__ == '__main__':
    if len(sys.argv) == 5 and sys.argv[1] == 'serve':
        serve(*sys.argv[2:])
    elif len(sys.argv) == 5 and sys.argv[1] == 'set':
        set_delays(*sys.argv[2:])
    else:
        sys.exit(__doc__)
