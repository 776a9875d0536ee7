#!/usr/bin/env python3
"""Keep the CPUs out of idle states while the benchmarks run (PM QoS: write 0
to /dev/cpu_dma_latency and keep it open), then exit when stdin closes.

Why: on a virtual machine an idle vCPU halts, and waking it costs tens of
microseconds; a lock cycle is two round trips to a server on the same machine,
so without this the figures mostly measure how often the vCPUs fell asleep,
which depends on how busy each contender keeps them (a JVM's own threads keep
them awake more than a single-threaded C program). With it, every contender
runs under the same condition and the ratios compare the code.
Prints "held" or "unavailable: why" on its first line.
"""
import struct
import sys

try:
    qos = open("/dev/cpu_dma_latency", "wb", buffering=0)
    qos.write(struct.pack("i", 0))
except OSError as e:
    print(f"unavailable: {e.strerror}", flush=True)
    sys.exit(0)
print("held", flush=True)
sys.stdin.read()  # until run.sh ends
qos.close()
