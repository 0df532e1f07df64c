#!/usr/bin/python3
"""Copies JSON lines from stdin to stdout, adding "_rt": the real (guest) wall time each line arrived. The
daemon stamps its events with its own wall clock, which --fake-time shifts; this maps them back to real time
(to compare with the sound card's recording). A line that is not JSON is kept as {"_raw": line}."""
import json
import sys
import time

for raw in sys.stdin.buffer:
    arrived = time.time()
    text = raw.decode("utf-8", "replace").rstrip("\n")
    try:
        event = json.loads(text)
        if not isinstance(event, dict):
            raise ValueError
    except ValueError:
        event = {"_raw": text}
    event["_rt"] = round(arrived, 4)
    sys.stdout.write(json.dumps(event) + "\n")
    sys.stdout.flush()
