#!/usr/bin/env python3
"""Exclusion torture: N worker processes take one lock again and again while a
fault injector breaks things, and a checker looks for two workers in the
critical section at once.

    tests/torture/torture.py                                  # builds the worker, short run
    tests/torture/torture.py --long                           # 60 s per fault kind
    tests/torture/torture.py --worker BIN --json results.json # a given worker; results for bench/report.py

Without --worker it builds torture_worker into build/torture (CMake, Ninja).

Fault kinds, one phase each (so every overlap is attributed to one kind):
  none         no fault: the baseline
  terminate    pg_terminate_backend of the lock holder's server session
  restart      the server restarted (pg_ctl restart -m fast)
  packet_drop  every packet dropped on the veth pair between the workers (in a
               network namespace) and the server, then restored
  sigkill      SIGKILL to a worker (replaced by a new one)

Modes: "session" (advlock session locks: a worker leaves the critical section
the moment advlock reports the loss, so an overlap lasts at most as long as the
detection takes, and is measured), "xact" (advlock_xact_lock in the
transaction that commits the work: committed work never overlaps) and
"session-fenced" (session locks with fencing tokens: the work commits on the
worker's own data connection after advlock_fence_check, and the worker ignores
the loss while it works, so only the fence can keep committed work apart; the
checker compares each committed row's start with the commit timestamp of the
row with the previous token, and counts the checks that fenced a stale holder
out).

Times are CLOCK_MONOTONIC on this one machine (time.monotonic_ns in Python,
steady_clock in the worker); committed work is timed on the server's clock.
Exits 1 when committed transactional or fenced work overlapped, when fenced
tokens were not increasing in commit order, when a session-lock overlap has no
fault to explain it, or when a phase committed or ran no critical section at
all.
"""
import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "scripts"
KINDS = ["none", "terminate", "restart", "packet_drop", "sigkill"]
MODES = ["session", "xact", "session-fenced"]
LOCK_NAME = "torture.the_one_lock"


def now():
    return time.monotonic_ns()


def run(command, check=True, **kwargs):
    return subprocess.run(command, shell=isinstance(command, str), check=check,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs)


class Network:
    """A namespace joined to this one by a veth pair, and a switch that drops
    every packet crossing it (nftables on both ends)."""

    def __init__(self):
        tag = f"{os.getpid() % 100000}"
        self.ns, self.host_if, self.ns_if = f"advt{tag}", f"advt{tag}h", f"advt{tag}n"
        self.table = f"advlock_torture_{tag}"
        # 10.214, not the fault tests' 10.213 (tests/faults): ctest may run
        # them at the same time, and one address on two veths breaks both.
        octet = 16 + os.getpid() % 200
        self.host_ip, self.client_ip = f"10.214.{octet}.1", f"10.214.{octet}.2"
        self.reason = None
        if os.geteuid() != 0:
            self.reason = "needs root to create a network namespace"
        elif not shutil.which("ip") or not shutil.which("nft"):
            self.reason = "needs ip (iproute2) and nft (nftables)"
        elif run(f"ip netns add {self.ns}", check=False).returncode != 0:
            self.reason = "this machine cannot create network namespaces (ip netns add failed)"
        else:
            steps = [f"ip link add {self.host_if} type veth peer name {self.ns_if}",
                     f"ip link set {self.ns_if} netns {self.ns}",
                     f"ip addr add {self.host_ip}/30 dev {self.host_if}", f"ip link set {self.host_if} up",
                     f"ip netns exec {self.ns} ip addr add {self.client_ip}/30 dev {self.ns_if}",
                     f"ip netns exec {self.ns} ip link set {self.ns_if} up",
                     f"ip netns exec {self.ns} ip link set lo up"]
            if any(run(step, check=False).returncode != 0 for step in steps):
                self.reason = "could not wire a veth pair into the namespace"

    @property
    def available(self):
        return self.reason is None

    def drop(self):
        run(f"nft add table inet {self.table}")
        run(f"nft add chain inet {self.table} in '{{ type filter hook input priority 0; }}'")
        run(f"nft add rule inet {self.table} in iifname {self.host_if} drop")
        run(f"ip netns exec {self.ns} nft add table inet torture")
        run(f"ip netns exec {self.ns} nft add chain inet torture in '{{ type filter hook input priority 0; }}'")
        run(f"ip netns exec {self.ns} nft add rule inet torture in drop")

    def restore(self):
        run(f"nft delete table inet {self.table}", check=False)
        run(f"ip netns exec {self.ns} nft delete table inet torture", check=False)

    def close(self):
        self.restore()
        run(f"ip netns del {self.ns}", check=False)
        run(f"ip link del {self.host_if}", check=False)


class Server:
    """A throwaway PostgreSQL (scripts/pg-start.sh), also listening on the veth."""

    def __init__(self, network):
        self.state = tempfile.mkdtemp(prefix="advlock-torture-pg.")
        listen = "127.0.0.1" + (f",{network.host_ip}" if network.available else "")
        # Commit timestamps: when fenced work committed, on the server's clock.
        run([str(SCRIPTS / "pg-start.sh"), self.state, "-c", f"listen_addresses={listen}",
             "-c", "track_commit_timestamp=on"])
        self.url = self.read("url")
        self.network_url = None
        if network.available:
            with open(Path(self.read("data_dir")) / "pg_hba.conf", "a", encoding="utf-8") as hba:
                hba.write(f"host all all {network.client_ip}/32 scram-sha-256\n")
            self.network_url = self.url.replace("@127.0.0.1:", f"@{network.host_ip}:")
        self.admin = None
        self.sql("SELECT pg_reload_conf()")
        self.sql("CREATE TABLE torture_work (worker int, seq bigint, entered timestamptz, exited timestamptz)")
        self.sql("CREATE TABLE torture_fenced (token bigint, worker int, seq bigint, started_at timestamptz)")
        if self.sql("SHOW track_commit_timestamp") != "on":
            raise SystemExit("torture: the server did not turn track_commit_timestamp on; "
                             "the fenced mode needs it (pg-start.sh -c track_commit_timestamp=on)")

    def create_fence(self, worker):
        """The fence table and functions, from advlock_sql_fence (the worker
        prints it), as `advlock sql fence | psql` would create them."""
        printed = run([worker, "sql-fence"], check=False)
        if printed.returncode != 0:
            raise SystemExit(f"torture: {worker} sql-fence failed: {printed.stderr.strip()}")
        created = run(["psql", self.url, "-XAtq", "-v", "ON_ERROR_STOP=1"], check=False, input=printed.stdout)
        if created.returncode != 0:
            raise SystemExit(f"torture: psql could not create the fence table: {created.stderr.strip()}")

    def read(self, name):
        return (Path(self.state) / name).read_text(encoding="utf-8").strip()

    def sql(self, statement):
        return run(["psql", self.url, "-XAtq", "-c", statement]).stdout.strip()

    def terminate_holder(self):
        """pg_terminate_backend of the lock's holder, through a connection
        kept open, so the fault's time is taken just before the server acts
        (a new psql would add its own start-up to every detection latency).
        Returns the fault's time and the terminated server session's pid, or
        None when nobody held the lock."""
        if self.admin is None or self.admin.poll() is not None:
            self.admin = subprocess.Popen(["psql", self.url, "-XAtq"], stdin=subprocess.PIPE,
                                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.admin.stdin.write("SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted "
                               "AND NOT (objsubid = 2 AND classid = 1633971307) LIMIT 1;\\echo __end__\n")
        pid = None
        for line in self.admin.stdout:
            if line.strip() == "__end__":
                break
            pid = int(line) if line.strip() else pid
        if pid is None:
            return None
        at = now()
        self.admin.stdin.write(f"SELECT pg_terminate_backend({pid});\\echo __end__\n")
        for line in self.admin.stdout:
            if line.strip() == "__end__":
                break
        return at, pid

    def restart(self):
        run([str(SCRIPTS / "pg-restart.sh"), self.state, "fast"])

    def stop(self):
        if self.admin is not None and self.admin.poll() is None:
            self.admin.stdin.close()
            self.admin.wait()
        run([str(SCRIPTS / "pg-stop.sh"), self.state], check=False)


class Phase:
    """One mode x fault kind: workers, faults, and the checker's findings."""

    def __init__(self, args, server, network, mode, kind, index):
        self.args, self.server, self.network, self.mode, self.kind = args, server, network, mode, kind
        self.dir = Path(tempfile.mkdtemp(prefix=f"advlock-torture-{mode}-{kind}."))
        self.worker_base = index * 1000
        self.workers = {}  # worker id -> Popen
        self.next_worker = 0
        # (start ns, end ns, kind, victim): a fault lasts from its start to when
        # the injector is done; victim is the terminated server session's pid
        # (terminate only), else None.
        self.faults = []
        self.kills = {}  # worker id -> ns of its SIGKILL

    def url(self):
        return self.server.network_url if self.kind == "packet_drop" else self.server.url

    def spawn(self):
        worker = self.worker_base + self.next_worker
        self.next_worker += 1
        # A packet drop must find the holder holding, not waiting in a call:
        # only then is the heartbeat what notices the silence.
        hold_ms = self.args.drop_hold_ms if self.kind == "packet_drop" else self.args.hold_ms
        command = [self.args.worker, self.mode, self.url(), LOCK_NAME, str(self.dir / f"w{worker}.log"), str(hold_ms)]
        if self.mode in ("xact", "session-fenced"):
            command.append(str(worker))
        if self.kind == "packet_drop":
            command = ["ip", "netns", "exec", self.network.ns] + command
        self.workers[worker] = subprocess.Popen(command)

    def inject(self, deadline):
        kind = self.kind
        if kind == "none":
            time.sleep(max(0, (deadline - now()) / 1e9))
            return
        while now() < deadline:
            if kind == "terminate":
                time.sleep(random.uniform(0.2, 0.5))
                hit = self.server.terminate_holder()
                if hit:
                    self.faults.append((hit[0], now(), kind, hit[1]))
            elif kind == "restart":
                time.sleep(random.uniform(0.8, 1.2))
                at = now()
                self.server.restart()
                self.faults.append((at, now(), kind, None))
            elif kind == "packet_drop":
                time.sleep(2.0)
                at = now()
                self.network.drop()
                time.sleep(self.args.drop_seconds)
                self.network.restore()
                self.faults.append((at, now(), kind, None))
                time.sleep(4.0)  # TCP's retransmission backoff takes a while to get through again
            elif kind == "sigkill":
                time.sleep(random.uniform(0.2, 0.5))
                victim = random.choice(list(self.workers))
                process = self.workers.pop(victim)
                at = now()
                process.kill()
                process.wait()
                self.kills[victim] = at
                self.faults.append((at, now(), kind, None))
                self.spawn()

    def run(self):
        if self.mode == "xact":
            self.server.sql("DELETE FROM torture_work")
        if self.mode == "session-fenced":
            self.server.sql("DELETE FROM torture_fenced")
        for _ in range(self.args.workers):
            self.spawn()
        self.started = now()
        # After a drop, TCP's retransmission backoff takes a while to recover:
        # give that phase time for sections after the faults too.
        seconds = max(self.args.seconds * 2, 8.0) if self.kind == "packet_drop" else self.args.seconds
        self.inject(self.started + int(seconds * 1e9))
        self.ended = now()
        for process in self.workers.values():
            process.send_signal(signal.SIGTERM)
        for process in self.workers.values():
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if self.kind == "packet_drop":
            self.network.restore()
        checks = {"session": self.check_session, "xact": self.check_xact, "session-fenced": self.check_fenced}
        return checks[self.mode]()

    def sections_from_logs(self):
        sections, losses = [], []
        for log in sorted(self.dir.glob("w*.log")):
            worker = int(log.stem[1:])
            open_entry = None
            for line in log.read_text(encoding="utf-8").splitlines():
                fields = line.split(" ")
                if fields[0] == "E":
                    open_entry = (int(fields[1]), int(fields[2]), int(fields[3]))
                elif fields[0] == "X" and open_entry:
                    sections.append((open_entry[1], int(fields[2]), worker, fields[3], open_entry[2]))
                    open_entry = None
                elif fields[0] == "L":
                    losses.append((int(fields[1]), worker))
            if open_entry:  # killed inside the critical section: it ended with the process
                sections.append((open_entry[1], self.kills.get(worker, self.ended), worker, "killed", open_entry[2]))
        return sorted(sections), losses

    def check_session(self):
        sections, _ = self.sections_from_logs()
        faults = sorted(self.faults, key=lambda fault: fault[0])
        fault_times = [start for start, _, _, _ in faults]
        overlaps, unexplained, worst = 0, 0, 0
        for i, (a_in, a_out, a_worker, _, a_server) in enumerate(sections):
            for b_in, b_out, b_worker, _, _ in sections[i + 1:]:
                if b_in >= a_out:
                    break
                if b_worker == a_worker:
                    continue
                overlaps += 1
                worst = max(worst, min(a_out, b_out) - b_in)
                # A loss must explain it: a fault that began before B entered
                # and either was under way after A entered or ended A's very
                # server session. (A lock granted just before its session is
                # terminated can reach the worker after the injector is done:
                # A then enters after the fault "ended", on a dead session.)
                if not any(start <= b_in and (end >= a_in or victim == a_server)
                           for start, end, _, victim in faults):
                    unexplained += 1
                    print(f"torture: unexplained overlap: worker {a_worker} (server session {a_server}) in "
                          f"{(a_in - self.started) / 1e6:.3f} ms, out {(a_out - self.started) / 1e6:.3f} ms; "
                          f"worker {b_worker} in {(b_in - self.started) / 1e6:.3f} ms; faults before: "
                          f"{[((f[0] - self.started) / 1e6, f[3]) for f in faults if f[0] <= b_in][-3:]}",
                          flush=True)
        # How long the holder went on after each fault: from the fault to the
        # moment it left the critical section on advlock's word. This is what
        # bounds an overlap.
        # (A restart's holder may also be one that entered after the injector
        # began the restart: the first lost section ending after the fault.)
        latencies = []
        for i, t in enumerate(fault_times):
            next_fault = fault_times[i + 1] if i + 1 < len(fault_times) else float("inf")
            ends = [s_out for _, s_out, _, reason, _ in sections if reason == "lost" and t <= s_out < next_fault]
            if ends:
                latencies.append(min(ends) - t)
        return self.result(len(sections), overlaps, worst, unexplained, latencies)

    def check_xact(self):
        rows = self.server.sql(
            "SELECT extract(epoch FROM entered)::numeric * 1e9 || ' ' || extract(epoch FROM exited)::numeric * 1e9 "
            "|| ' ' || worker FROM torture_work WHERE exited IS NOT NULL ORDER BY entered").splitlines()
        sections = [(float(a), float(b), int(w)) for a, b, w in (r.split(" ") for r in rows)]
        overlaps, worst = 0, 0
        for i, (a_in, a_out, a_worker) in enumerate(sections):
            for b_in, b_out, b_worker in sections[i + 1:]:
                if b_in >= a_out:
                    break
                overlaps += 1
                worst = max(worst, min(a_out, b_out) - b_in)
        return self.result(len(sections), overlaps, worst, 0, [])

    def check_fenced(self):
        """Committed fenced work, on the server's clocks: a row overlaps when
        its work started before the row with the previous token committed
        (tokens of rolled-back work leave gaps, which do not matter); tokens
        must also increase in commit order (a tie counts as a violation).
        The workers' logs give the checks that fenced a holder out."""
        work = ("SELECT token, started_at, pg_xact_commit_timestamp(xmin) AS committed FROM torture_fenced")
        by_token = "SELECT started_at, lag(committed) OVER (ORDER BY token) AS previous FROM work"
        by_commit = "SELECT token, lag(token) OVER (ORDER BY committed, token DESC) AS previous FROM work"
        overlapping = "FROM by_token WHERE started_at < previous"
        row = self.server.sql(
            f"WITH work AS ({work}), by_token AS ({by_token}), by_commit AS ({by_commit}) "
            "SELECT (SELECT count(*) FROM work) || ' ' || (SELECT count(*) FROM work WHERE committed IS NULL) "
            f"|| ' ' || (SELECT count(*) {overlapping}) "
            f"|| ' ' || (SELECT coalesce(extract(epoch FROM max(previous - started_at)), 0) * 1e9 {overlapping}) "
            "|| ' ' || (SELECT count(*) FROM by_commit WHERE token <= previous)")
        sections, untimed, overlaps, worst_ns, disordered = row.split(" ")
        if int(untimed):
            raise SystemExit(f"torture: {untimed} committed rows have no commit timestamp (track_commit_timestamp off?)")
        outcomes = {"F": [], "A": [], "N": []}  # letter -> the reasons logged
        for log in sorted(self.dir.glob("w*.log")):
            for line in log.read_text(encoding="utf-8").splitlines():
                letter, _, rest = line.partition(" ")
                if letter in ("F", "A"):  # seq ns token why
                    outcomes[letter].append(" ".join(rest.split(" ")[3:]))
                elif letter == "N":  # ns why
                    outcomes[letter].append(rest.partition(" ")[2])
        if int(sections) == 0:  # say why nothing committed
            for reason in sorted(set(outcomes["A"] + outcomes["N"]))[:3]:
                print(f"torture: {self.mode}/{self.kind}: no commit; a failure said: {reason}", flush=True)
        return self.result(int(sections), int(overlaps), float(worst_ns), 0, [],
                           fenced_out=len(outcomes["F"]), aborted=len(outcomes["A"]),
                           token_order_violations=int(disordered))

    def result(self, sections, overlaps, worst_ns, unexplained, latencies, **fenced):
        latencies.sort()
        return {"mode": self.mode, "kind": self.kind, "seconds": (self.ended - self.started) / 1e9, "workers": self.args.workers,
                "sections": sections, "faults": len(self.faults), "overlaps": overlaps,
                "largest_overlap_ms": worst_ns / 1e6, "unexplained_overlaps": unexplained,
                "detection_ms_max": latencies[-1] / 1e6 if latencies else None,
                "detection_ms_p50": latencies[len(latencies) // 2] / 1e6 if latencies else None,
                "losses_measured": len(latencies), **fenced}


def table(results, skipped):
    lines = ["| mode | fault | critical sections | faults injected | overlaps | largest overlap | "
             "holder stopped after (p50 / max) | fenced out |", "|---|---|---|---|---|---|---|---|"]
    for r in results:
        detection = (f"{r['detection_ms_p50']:.1f} / {r['detection_ms_max']:.1f} ms"
                     if r["detection_ms_max"] is not None else "—")
        lines.append(f"| {r['mode']} | {r['kind']} | {r['sections']} | {r['faults']} | {r['overlaps']} | "
                     f"{r['largest_overlap_ms']:.2f} ms | {detection} | {r.get('fenced_out', '—')} |")
    for mode, kind, reason in skipped:
        lines.append(f"| {mode} | {kind} | skipped: {reason} | | | | | |")
    return "\n".join(lines)


def built_worker():
    """Configure and build tests/torture/torture_worker into build/torture."""
    build = ROOT / "build" / "torture"
    subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build), "-G", "Ninja", "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
                    "-DADVLOCK_BUILD_TESTS=ON"], check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--build", str(build), "--target", "torture_worker"], check=True,
                   stdout=subprocess.DEVNULL)
    return str(build / "tests" / "torture" / "torture_worker")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--worker", help="the torture_worker binary (default: build it into build/torture)")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=4.0, help="per fault kind and mode")
    parser.add_argument("--long", action="store_true", help="60 s per fault kind and mode")
    parser.add_argument("--hold-ms", type=int, default=20)
    parser.add_argument("--drop-seconds", type=float, default=2.0,
                        help="each packet drop (the workers' heartbeat: 300 ms + 700 ms deadline)")
    parser.add_argument("--drop-hold-ms", type=int, default=1500, help="critical sections in the packet_drop phase")
    parser.add_argument("--modes", default=",".join(MODES), help=f"any of {','.join(MODES)}")
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--json", help="write the results here too")
    args = parser.parse_args()
    if args.long:
        args.seconds = 60.0
    modes = args.modes.split(",")
    unknown = [mode for mode in modes if mode not in MODES]
    if unknown:
        parser.error(f"unknown mode {','.join(unknown)}: --modes takes any of {','.join(MODES)}")
    if not args.worker:
        args.worker = built_worker()
    network = Network()
    server = None
    results, skipped = [], []
    try:
        server = Server(network)
        if "session-fenced" in modes:
            server.create_fence(args.worker)
        index = 0
        for mode in modes:
            for kind in args.kinds.split(","):
                index += 1
                if kind == "packet_drop" and not network.available:
                    skipped.append((mode, kind, network.reason))
                    print(f"torture: {mode}/{kind} skipped: {network.reason}", flush=True)
                    continue
                result = Phase(args, server, network, mode, kind, index).run()
                results.append(result)
                fenced = f", {result['fenced_out']} fenced out" if "fenced_out" in result else ""
                print(f"torture: {mode}/{kind}: {result['sections']} sections, {result['faults']} faults, "
                      f"{result['overlaps']} overlaps (largest {result['largest_overlap_ms']:.2f} ms){fenced}", flush=True)
    finally:
        if server:
            server.stop()
        network.close()
    print(table(results, skipped))
    if args.json:
        Path(args.json).write_text(json.dumps({"results": results, "skipped": skipped}, indent=1), encoding="utf-8")
    failures = []
    for r in results:
        name = f"{r['mode']}/{r['kind']}"
        if r["sections"] == 0:
            failures.append(f"{name}: no critical section ran")
        if r["mode"] == "xact" and r["overlaps"]:
            failures.append(f"{name}: committed transactional work overlapped {r['overlaps']} times")
        if r["mode"] == "session-fenced" and r["overlaps"]:
            failures.append(f"{name}: committed fenced work overlapped {r['overlaps']} times")
        if r.get("token_order_violations"):
            failures.append(f"{name}: {r['token_order_violations']} fencing tokens not increasing in commit order")
        if r["unexplained_overlaps"]:
            failures.append(f"{name}: {r['unexplained_overlaps']} overlaps with no fault to explain them")
    phases = len(results) + len(skipped)
    print(f"torture: {phases} phases, {len(results)} run, {len(skipped)} skipped, "
          f"{sum(r['overlaps'] for r in results)} overlaps, {len(failures)} failures")
    for failure in failures:
        print(f"torture: FAILED {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
