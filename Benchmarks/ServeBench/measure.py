"""What serve_bench derives from a run: ranges over rounds, per-round ratios, and what a side's processes used.

CPU time and peak RSS are read from /proc for every process of the side's process group, so that thumbor's forks
and nginx's workers count with their parent: req/s alone would flatter a side that burns more cores per request.
"""
import os
import statistics
import time

import servers

TICK_MS = 1000 / os.sysconf("SC_CLK_TCK")


def span(values, fmt="%.0f", unit=""):
    low, high = min(values), max(values)
    text = fmt % low if fmt % low == fmt % high else "%s–%s" % (fmt % low, fmt % high)
    return text + unit


def ratios(ours, peer, fmt="%.2f"):
    """The range and median of the per-round ratios ours ÷ peer."""
    values = [a / b for a, b in zip(ours, peer) if b]
    return "%s× (median %s)" % (span(values, fmt), fmt % statistics.median(values)) if values else "n/a"


def rotated(items, round_index):
    items = list(items)
    shift = round_index % len(items)
    return items[shift:] + items[:shift]


def cpu_ms(group):
    """utime + stime (/proc/PID/stat fields 14 and 15) summed over the live processes of `group`, in ms."""
    ticks = sum(int(fields[11]) + int(fields[12]) for fields in servers.group_stats(group).values())
    return ticks * TICK_MS


def settle(group, seconds=30):
    """Waits (at most `seconds`) until `group` stops using CPU: requests wrk abandoned when its time ran out still
    finish inside the server, and must not run into the next side's measurement."""
    deadline = time.monotonic() + seconds
    last = cpu_ms(group)
    while time.monotonic() < deadline:
        time.sleep(0.25)
        now = cpu_ms(group)
        if now - last <= TICK_MS:
            return
        last = now


def peak_rss_mb(group):
    """The largest VmHWM among the processes of `group` (thumbor: its busiest fork)."""
    peak = 0
    for pid in servers.group_stats(group):
        try:
            with open("/proc/%d/status" % pid) as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        peak = max(peak, int(line.split()[1]) / 1024)
        except OSError:
            continue
    if not peak:
        raise RuntimeError("no VmHWM in process group %d" % group)
    return peak
