#!/usr/bin/python3
"""A simulated evdev accelerometer for the HIL: a uinput device "hil-accel" reporting ABS_X/Y/Z (±2 g at
256 counts per g, stated as the axes' resolution, INPUT_PROP_ACCELEROMETER set), sampled at 100 Hz like a real
sensor. Commands, one per line, from the FIFO given as the only argument:

  hold X Y Z     report these counts from now on (256 = 1 g; "hold 0 0 256" is the clock lying flat)
  shake SECONDS  a hand shaking the clock: x and y swing ±1 g at 5 Hz on top of the held value, then hold again
  bump           a knock: +1.5 g on x for 60 ms, then hold again
  quit

Prints "ready /dev/input/eventN" once the device exists, and "done <command>" when a command has been carried
out (a shake or bump: when it has ended). Standard library only (the guest uses the host's /usr/bin/python3).
"""
import fcntl
import math
import os
import select
import struct
import sys
import time

EV_SYN, EV_ABS, SYN_REPORT = 0x00, 0x03, 0
ABS_X, ABS_Y, ABS_Z = 0, 1, 2
INPUT_PROP_ACCELEROMETER = 6
BUS_VIRTUAL = 0x06
COUNTS_PER_G = 256
RATE_HZ = 100


def ioc(direction, nr, size):
    return (direction << 30) | (size << 16) | (ord("U") << 8) | nr


UI_DEV_CREATE = ioc(0, 1, 0)
UI_DEV_DESTROY = ioc(0, 2, 0)
UI_DEV_SETUP = ioc(1, 3, 92)          # struct uinput_setup
UI_ABS_SETUP = ioc(1, 4, 28)          # struct uinput_abs_setup
UI_SET_EVBIT = ioc(1, 100, 4)
UI_SET_ABSBIT = ioc(1, 103, 4)
UI_SET_PROPBIT = ioc(1, 110, 4)
UI_GET_SYSNAME = ioc(2, 44, 64)


def create():
    fd = os.open("/dev/uinput", os.O_WRONLY | os.O_NONBLOCK)
    fcntl.ioctl(fd, UI_SET_EVBIT, EV_SYN)
    fcntl.ioctl(fd, UI_SET_EVBIT, EV_ABS)
    for axis in (ABS_X, ABS_Y, ABS_Z):
        fcntl.ioctl(fd, UI_SET_ABSBIT, axis)
        # code, value, minimum, maximum, fuzz, flat, resolution (counts per g)
        fcntl.ioctl(fd, UI_ABS_SETUP, struct.pack("H2xiiiiii", axis, 0, -2 * COUNTS_PER_G, 2 * COUNTS_PER_G,
                                                   0, 0, COUNTS_PER_G))
    fcntl.ioctl(fd, UI_SET_PROPBIT, INPUT_PROP_ACCELEROMETER)
    fcntl.ioctl(fd, UI_DEV_SETUP, struct.pack("HHHH80sI", BUS_VIRTUAL, 0x1209, 0x0001, 1, b"hil-accel", 0))
    fcntl.ioctl(fd, UI_DEV_CREATE)
    name = bytearray(64)
    fcntl.ioctl(fd, UI_GET_SYSNAME, name)
    sysname = name.split(b"\0")[0].decode()
    for _ in range(100):  # the event node appears a moment after the input device
        events = [e for e in os.listdir(f"/sys/class/input/{sysname}") if e.startswith("event")]
        if events and os.path.exists(f"/dev/input/{events[0]}"):
            return fd, f"/dev/input/{events[0]}"
        time.sleep(0.05)
    raise SystemExit(f"uinput device {sysname} has no event node")


def emit(fd, x, y, z):
    events = b"".join(struct.pack("llHHi", 0, 0, EV_ABS, code, int(round(v)))
                      for code, v in ((ABS_X, x), (ABS_Y, y), (ABS_Z, z)))
    os.write(fd, events + struct.pack("llHHi", 0, 0, EV_SYN, SYN_REPORT, 0))


def main():
    fd, node = create()
    commands = os.open(sys.argv[1], os.O_RDWR | os.O_NONBLOCK)  # RDWR: no EOF when a writer closes
    print(f"ready {node}", flush=True)
    held = (0, 0, COUNTS_PER_G)
    motion, motion_end, pending = None, 0.0, ""
    buffer = b""
    next_tick = time.monotonic()
    while True:
        now = time.monotonic()
        if motion and now >= motion_end:
            print(f"done {pending}", flush=True)
            motion = None
        x, y, z = held
        if motion == "shake":
            phase = 2 * math.pi * 5 * now
            x, y = x + COUNTS_PER_G * math.sin(phase), y + COUNTS_PER_G * math.cos(phase)
        elif motion == "bump":
            x += 1.5 * COUNTS_PER_G
        emit(fd, x, y, z)
        next_tick += 1 / RATE_HZ
        ready, _, _ = select.select([commands], [], [], max(0, next_tick - time.monotonic()))
        if not ready:
            continue
        buffer += os.read(commands, 4096)
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            words = line.decode().split()
            if not words:
                continue
            if words[0] == "hold":
                held = tuple(int(w) for w in words[1:4])
                print(f"done {line.decode()}", flush=True)
            elif words[0] == "shake":
                motion, motion_end, pending = "shake", time.monotonic() + float(words[1]), line.decode()
            elif words[0] == "bump":
                motion, motion_end, pending = "bump", time.monotonic() + 0.06, line.decode()
            elif words[0] == "quit":
                fcntl.ioctl(fd, UI_DEV_DESTROY)
                return
        if time.monotonic() > next_tick + 1:  # fell far behind (a loaded VM): do not burst to catch up
            next_tick = time.monotonic()


if __name__ == "__main__":
    main()
