#!/usr/bin/env python3
"""libvips' raw ceiling for a serve_bench row: the libvips peer's own `process` run in a loop by THREADS threads
over source files already in memory, with no HTTP and no fetch. What the peer reaches beside it is what its serving
costs.

Jobs go round the sources as the row's URLs do: pass t asks source i for box (i + t) mod len(BOXES). The first
pass (every source, every box) runs once, untimed: each output must decode to imgproxy's size for its box. Then
every thread takes the next job until SECONDS have passed; images finished over the wall time from the start to the
last thread's end is the rate, the process's CPU time over them the CPU per image. Prints a human line and one
machine line: CEILING {"images": …, "seconds": …, "rate": …, "cpu_ms": …}

Usage: libvips_ceiling.py THREADS SECONDS QUALITY webp|jpg BOXES FILE…   (BOXES: 512x512 or 256x256,240x240,…)
"""
import itertools
import json
import sys
import threading
import time

sys.dont_write_bytecode = True  # no __pycache__ beside the sources in the work tree

import libvips_peer  # noqa: E402  (sets VIPS_CONCURRENCY and turns the cache off before libvips starts)
import pyvips  # noqa: E402


def check(data, box_width, box_height, quality, extension):
    """One untimed run of a job: the output decodes, in the requested format, at imgproxy's size."""
    source = pyvips.Image.new_from_buffer(data, "")
    expected = libvips_peer.fit_size(source.width, source.height, box_width, box_height)
    output = pyvips.Image.new_from_buffer(libvips_peer.process(data, box_width, box_height, quality, extension), "")
    output.avg()  # decodes every pixel
    loader = output.get("vips-loader").replace("jpeg", "jpg")
    if (output.width, output.height) != expected or not loader.startswith(extension):
        raise RuntimeError("%s made %dx%d, expected a %s of %dx%d" % (loader, output.width, output.height, extension,
                                                                     *expected))


def main():
    threads, seconds, quality, extension = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    boxes = [tuple(int(n) for n in box.split("x")) for box in sys.argv[5].split(",")]
    sources = []
    for path in sys.argv[6:]:
        with open(path, "rb") as f:
            sources.append(f.read())
    jobs = [(data, *boxes[(index + turn) % len(boxes)]) for turn in range(len(boxes))
            for index, data in enumerate(sources)]
    for data, width, height in jobs[:len(sources)]:
        check(data, width, height, quality, extension)

    counter = itertools.count()  # next() on it is atomic under the GIL: each job goes to one thread
    done = [0] * threads
    start_gate = threading.Barrier(threads + 1)

    def work(slot):
        start_gate.wait()
        while time.monotonic() < deadline:
            data, width, height = jobs[next(counter) % len(jobs)]
            libvips_peer.process(data, width, height, quality, extension)
            done[slot] += 1

    workers = [threading.Thread(target=work, args=(slot,)) for slot in range(threads)]
    for worker in workers:
        worker.start()
    cpu_before, start = time.process_time(), time.monotonic()
    deadline = start + seconds
    start_gate.wait()
    for worker in workers:
        worker.join()
    wall, cpu = time.monotonic() - start, time.process_time() - cpu_before
    images = sum(done)
    print("libvips raw ceiling: %.1f img/s, %.1f ms CPU per image (%d threads, %d images in %.1f s, no HTTP)"
          % (images / wall, cpu * 1000 / images, threads, images, wall))
    print("CEILING " + json.dumps({"images": images, "seconds": wall, "rate": images / wall,
                                   "cpu_ms": cpu * 1000 / images}), flush=True)


if __name__ == "__main__":
    main()
