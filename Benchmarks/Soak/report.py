"""The soak's figures beside its targets. `Report.show()` prints them and returns the targets missed."""
import re

import load


def percentile(values, fraction):
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def mean(values):
    return sum(values) / len(values) if values else float("nan")


def statuses_text(counts):
    return ", ".join("%s×%d" % (status, n) for status, n in sorted(counts.items(), key=lambda item: str(item[0])))


class Report:
    def __init__(self, opts, mix, misbehaving, slowloris, watch, check, drained, crashed, baseline, settled, final,
                 metrics, restarted_at, log_paths):
        self.opts, self.mix, self.misbehaving, self.slowloris, self.watch = opts, mix, misbehaving, slowloris, watch
        self.check, self.drained, self.crashed = check, drained, crashed
        self.baseline, self.settled, self.final, self.metrics = baseline, settled, final, metrics
        self.restarted_at, self.log_paths = restarted_at, log_paths
        self.rows = []

    def row(self, name, figure, target, met):
        self.rows.append((name, figure, target, met))

    def show(self):
        tally = self.mix.tally
        print("\n== requests (client side)")
        for category in sorted(tally.statuses):
            latencies = tally.latencies.get(category, [])
            timing = " p50 %.0f ms, p99 %.0f ms" % (percentile(latencies, 0.5) * 1000,
                                                    percentile(latencies, 0.99) * 1000) if latencies else ""
            print("  %-24s %s%s" % (category, statuses_text(tally.statuses[category]), timing))
        print("  cut by the SIGKILL: %d" % tally.cut)
        for failure in tally.failures:
            print("  FAILED %s" % failure)

        print("\n== misbehaving clients (raw sockets)")
        for label, (ok, bad) in sorted(self.misbehaving.results.items()):
            print("  %-40s %d as expected, %d not" % (label, ok, bad))
        for failure in self.misbehaving.failures:
            print("  FAILED %s" % failure)
        lifetimes = self.slowloris.lifetimes
        print("  slowloris: %d connections opened, %d refused, %d closed by the server (after %s s)" % (
            self.slowloris.opened, self.slowloris.refused, self.slowloris.closed_by_server,
            "%.0f–%.0f" % (min(lifetimes), max(lifetimes)) if lifetimes else "–"))

        served = {}
        for series, value in self.metrics.items():
            match = re.search(r'http_response_status_code="(\d+)"', series)
            if series.startswith("hb_requests") and match:
                served[match.group(1)] = served.get(match.group(1), 0) + int(value)
        print("\n== the restarted server's own count of answers by status (hb_requests): %s" % (
            ", ".join("%s×%d" % item for item in sorted(served.items())) or "none"))
        self.logs()

        valid = tally.count(lambda category, status: category in load.VALID)
        valid_ok = tally.count(lambda category, status: category in load.VALID and status in load.VALID[category])
        valid_429 = tally.count(lambda category, status: category in load.VALID and status == 429)
        valid_bad = tally.count(lambda category, status: category in load.VALID and status not in load.VALID[category]
                                and status != 429) + tally.count(lambda category, status: category == "valid_step")
        hostile = tally.count(lambda category, status: category.startswith("hostile "))
        hostile_200 = tally.count(lambda category, status: category.startswith("hostile ") and status == 200)
        hostile_bad = tally.count(lambda category, status: (category.startswith("hostile ") and status != 429
                                                           and status not in load.HOSTILE[category[8:]])
                                  or category == "hostile_step")
        fuzz = tally.count(lambda category, status: category == "fuzz")
        fuzz_timeouts = tally.count(lambda category, status: category == "fuzz" and status == 503)
        fuzz_bad = tally.failed.get("fuzz", 0) + tally.failed.get("fuzz_step", 0)
        raw_bad = sum(bad for _, bad in self.misbehaving.results.values())
        raw = sum(ok + bad for ok, bad in self.misbehaving.results.values())

        self.row("no crash", "crashed" if self.crashed else "alive until the SIGKILL and until the SIGTERM",
                 "no crash", not self.crashed)
        self.row("valid requests", "%d: %d as expected (200, 304), %d × 429, %d otherwise" % (
            valid, valid_ok, valid_429, valid_bad), "200 (or 429), never 5xx", valid_bad == 0 and valid > 0)
        self.row("hostile requests", "%d: %d × 200, %d not their documented status" % (hostile, hostile_200,
                                                                                       hostile_bad),
                 "documented 4xx/5xx, never 200", hostile_bad == 0 and hostile_200 == 0 and hostile > 0)
        self.row("fuzzed options", "%d: %d failures (5xx, or 200 with no image); %d × 503 processing timeout" % (
            fuzz, fuzz_bad, fuzz_timeouts), "never 5xx but the processing timeout", fuzz_bad == 0)
        self.row("misbehaving clients", "%d cases run, %d answered otherwise than expected" % (raw, raw_bad),
                 "refused 4xx or dropped, never 2xx/5xx", raw_bad == 0)
        check = self.check
        self.row("cache after SIGKILL + restart", "%d checked: %d identical (bytes and ETag), %d remade, %d corrupt, "
                 "%d other; disk hits %d, misses %d; corrupt files counted %d" % (
                     check["checked"], check["identical"], check["remade"], len(check["corrupt"]),
                     len(check["other"]), check["disk hits"], check["misses"], check["corrupt counted"]),
                 "identical or remade, never corrupt", not check["corrupt"] and not check["other"])
        for line in check["corrupt"][:10] + check["other"][:10]:
            print("  FAILED cache: %s" % line)
        self.memory()
        self.health()
        self.drain()

        print("\n%-32s %-88s %-28s %s" % ("target", "measured", "target", ""))
        missed = []
        for name, figure, target, met in self.rows:
            print("%-32s %-88s %-28s %s" % (name, figure, target, "met" if met else "NOT MET"))
            if not met:
                missed.append(name)
        print("\n%s" % ("every target met" if not missed else "targets missed: " + ", ".join(missed)))
        return missed

    def memory(self):
        samples = [s for s in self.watch.samples if s[1] == max(s[1] for s in self.watch.samples)]
        if not samples:
            self.row("RSS", "no samples", "", False)
            return
        end = samples[-1][0]
        warm_up = max(5.0, 0.15 * (end - self.restarted_at))
        steady = [s for s in samples if s[0] >= self.restarted_at + warm_up]
        third = (end - self.restarted_at - warm_up) / 3
        first = [s[2] for s in steady if s[0] < self.restarted_at + warm_up + third]
        last = [s[2] for s in steady if s[0] >= end - third]
        ratio = mean(last) / mean(first) if first and last else float("nan")
        self.row("RSS, last third ÷ first third", "%.2f× (%.0f → %.0f MB mean; max %.0f MB; warm-up %.0f s)" % (
            ratio, mean(first) / 1024, mean(last) / 1024, max(s[2] for s in samples) / 1024, warm_up),
            "≤ 1.2×", ratio <= 1.2)
        tenths = []
        for index in range(10):
            low = self.restarted_at + (end - self.restarted_at) * index / 10
            high = self.restarted_at + (end - self.restarted_at) * (index + 1) / 10
            tenths.append(mean([s[2] for s in samples if low <= s[0] < high]) / 1024)
        print("\n== the restarted server's RSS by tenth of its run (MB): %s" % " ".join("%.0f" % mb for mb in tenths))
        threads = [s[3] for s in samples]
        fds = [s[4] for s in samples]
        print("\n== the restarted server: threads %d–%d, open files %d–%d under load" % (
            min(threads), max(threads), min(fds), max(fds)))
        settled = self.settled or self.final
        figure = "%d at the start, %d at the end" % (self.baseline[2], settled[2]) if settled else "server gone"
        self.row("open files after the load", figure, "start ± 10",
                 bool(settled) and abs(settled[2] - self.baseline[2]) <= 10)

    def health(self):
        during = [seconds for _, seconds, on in self.watch.health if on]
        outside = [seconds for _, seconds, on in self.watch.health if not on]
        failed = sum(1 for seconds in during if seconds is None)
        timed = [seconds if seconds is not None else float("inf") for seconds in during]
        calm = [seconds for seconds in outside if seconds is not None]
        p99 = percentile(timed, 0.99)
        print("\n== /health outside slowloris: %d samples, p50 %.1f ms, p99 %.1f ms, %d failed" % (
            len(outside), percentile(calm, 0.5) * 1000, percentile(calm, 0.99) * 1000, len(outside) - len(calm)))
        self.row("/health p99 during slowloris", "%.1f ms (p50 %.1f ms, max %.1f ms, %d samples, %d failed)" % (
            p99 * 1000, percentile(timed, 0.5) * 1000, max(timed or [float("nan")]) * 1000, len(timed), failed),
            "< 100 ms", bool(timed) and p99 < 0.1)

    def drain(self):
        drained = self.drained
        if drained is None:
            self.row("drain after SIGTERM", "server gone before the SIGTERM", "", False)
            return
        deadline = self.opts.drain_seconds
        met = drained["status"] == 0 and drained["seconds"] <= deadline and all(
            status == 200 for kind, status in drained["answers"] if kind == "valid")
        self.row("drain after SIGTERM", "exit %s after %.2f s; under way: %s; a new client: %s" % (
            drained["status"], drained["seconds"],
            ", ".join("%s %s" % answer for answer in sorted(drained["answers"], key=str)),
            drained["newcomer"]), "exit 0 within %d s, under way answered" % deadline, met)

    def logs(self):
        """Lines of the server's stderr above `info` (the access log is `info`), and any fatal error."""
        for path in self.log_paths:
            with open(path, errors="replace") as f:
                text = f.read()
            lines = [line for line in text.splitlines() if " info " not in line]
            fatal = [line for line in lines if "Fatal error" in line or "Crash" in line or "fault" in line]
            kinds = {}
            for line in lines:
                key = re.sub(r"\d+", "N", line.split(" ", 1)[-1])[:110]
                kinds[key] = kinds.get(key, 0) + 1
            print("\n== %s: %d lines, %d above info, %d fatal" % (path.rsplit("/", 1)[-1], len(text.splitlines()),
                                                                 len(lines), len(fatal)))
            for key, count in sorted(kinds.items(), key=lambda item: -item[1])[:12]:
                print("  %5d × %s" % (count, key))
            if fatal:
                self.crashed = True
                for line in fatal[:10]:
                    print("  FATAL %s" % line)
