"""Classroom load (issue 31): 40 devices in one live class against a running server.

Against a server started as docs/deployment.md says (gunicorn ``-c
python:trainer.cli.gunicorn_conf --preload -w 4``), or two of them on one PostgreSQL
database (``--url`` twice: the devices are split between them, the instructor drives
from the first). Run it with the server's environment (``DATABASE_URL``,
``TRAINER_INSTANCE_PATH``): it creates its accounts in that database first (a
supervisor ``class-load-sup``, a group "Classroom load" and trainees
``class-load0``..; kept and reused) and reads the records back at the end.

Each device is a thread with its own keep-alive connection, as a tablet's browser:
it signs in, joins the class, and polls ``/class/<id>/state`` every ``poll_ms`` (what
the server says, at a random phase) with its change token, as static/js/classroom.js
does; it answers each hand a think time after it first saw it (from the hand's own
HTML: two of the seven cards, or one of the choices), and one device in five changes its
answer once. The projector polls ``/class/<id>/live`` beside them. The instructor deals
``--hands`` hands in pairs of a kind (``deal`` a kind, then ``next``), waits for every
answer, locks, reveals, talks over it for ``--pause`` seconds; after each action it waits
until every device holds the new state. The pace (``--think 5 --pause 3``: a hand about
every 12 s) is a brisk class; ``--think 2.5 --pause 0.5`` (a hand every 6.5 s) a stress.
An action's update time runs from the instructor's request to the moment the
last device's poll brought the new state (hand number and state).

It prints ONE JSON line: ``devices``, ``hands``, ``answers_sent`` (hands a device had
an answer acknowledged to), ``answers_recorded`` (class attempts in the database),
``lost`` (acknowledged, not recorded), ``doubled`` (attempts beyond one per trainee and
hand), ``p95_update_ms`` (over all deal, next, lock and reveal actions),
``poll_interval_ms``, ``server_cpu_s`` (utime + stime of every gunicorn process tree
serving the URLs, from /proc, over the run), and beside them the run's wall time, the
server's average share of one core, the client's CPU, the slowest update, updates that
never arrived, refusals, the load average before and after, and the largest resident
memory of a worker after the run.

    .venv/bin/python bench/classroom_load.py --devices 40 --hands 20 --seed 1 \
        --url http://127.0.0.1:8000
    .venv/bin/python bench/classroom_load.py ... --url http://127.0.0.1:8000 --url http://127.0.0.1:8001

The server's processes are found by the port they listen on (``--server-pid`` gives a
master's pid instead). Figures go in docs/operations.md ("Classroom load").
"""
from __future__ import annotations

import argparse
import html
import json
import os
import random
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load_kit import Browser, children, cpu_seconds, loadavg, percentile

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "class-load-pw-1"
SUPERVISOR = "class-load-sup"
GROUP = "Classroom load"
KINDS = ("house-way", "foul-check", "hand-reading")
CARD = re.compile(r'data-card="([^"]+)"')
CHOICE = re.compile(r"data-answer='([^']+)'")
CLASS_ID = re.compile(r"/class/(\d+)$")


def signed_in(url: str, login: str) -> Browser:
    """A device's browser on the server at ``url``, signed in as ``login``."""
    client = Browser.at(url)
    status = client.sign_in(login, PASSWORD)
    if status != 302:
        raise SystemExit(f"{login} could not sign in ({status})")
    return client


def send_json(client: Browser, path: str, payload: dict[str, Any]) -> tuple[int, Any]:
    """POST JSON; return the status and the reply read as JSON (None when empty)."""
    status, _, data = client.post_json(path, payload)
    return status, json.loads(data) if data else None


# --- the accounts and the records, in the server's database ---------------------------------

def python(code: str) -> str:
    """Run ``code`` with the app in this environment (the server's); return its output."""
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          env=dict(os.environ))
    if done.returncode:
        raise SystemExit(f"setup failed:\n{done.stderr[-2000:]}")
    return done.stdout


def prepare(devices: int) -> int:
    """Create (or reuse) the supervisor, the group and ``devices`` trainees; return the group id."""
    out = python(f"""
from trainer import create_app
from trainer.extensions import db
from trainer.models import Group, Membership, User
app = create_app({{"PASSWORD_HASH_METHOD": "scrypt:1024:8:1"}})
with app.app_context():
    def user(login, name, role):
        found = db.session.execute(db.select(User).filter_by(login=login)).scalar_one_or_none()
        if found is None:
            found = User(name=name, login=login, role=role)
            found.set_password({PASSWORD!r})
            db.session.add(found)
        return found
    sup = user({SUPERVISOR!r}, "Class load instructor", "supervisor")
    db.session.flush()
    group = db.session.execute(db.select(Group).filter_by(name={GROUP!r})).scalar_one_or_none()
    if group is None:
        group = Group(name={GROUP!r}, supervisor=sup, settings={{}})
        db.session.add(group)
        db.session.flush()
    for i in range({devices}):
        trainee = user(f"class-load{{i}}", f"Class load trainee {{i:02d}}", "trainee")
        if trainee.membership is None:
            trainee.membership = Membership(group=group)
    db.session.commit()
    print(group.id)
""")
    return int(out.strip().splitlines()[-1])


def records(class_id: int) -> tuple[set[tuple[str, int]], int]:
    """Return the (login, hand) pairs recorded as a class attempt, and how many attempts
    beyond one per trainee and hand the class's sessions hold."""
    out = python(f"""
import json
from sqlalchemy import func, select
from trainer import create_app
from trainer.extensions import db
from trainer.models import Attempt, ClassAnswer, ClassHand, User
app = create_app()
with app.app_context():
    rows = db.session.execute(
        select(User.login, ClassHand.number, ClassAnswer.attempt_id)
        .join(ClassAnswer, ClassAnswer.user_id == User.id)
        .join(ClassHand, ClassHand.id == ClassAnswer.hand_id)
        .where(ClassHand.class_id == {class_id}, ClassAnswer.attempt_id.is_not(None))).all()
    ids = [a for _, _, a in rows]
    sessions = select(Attempt.session_id).where(Attempt.id.in_(ids)).distinct()
    held = db.session.execute(select(func.count(Attempt.id)).where(
        Attempt.session_id.in_(sessions))).scalar_one() if ids else 0
    print(json.dumps({{"pairs": [[u, n] for u, n, _ in rows], "extra": held - len(set(ids))}}))
""")
    found = json.loads(out.strip().splitlines()[-1])
    return {(u, n) for u, n in found["pairs"]}, int(found["extra"])


# --- the server's processes, from /proc -----------------------------------------------------

def listeners(port: int) -> list[int]:
    """Return the pids holding the socket that listens on ``port`` (master and workers)."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(f"socket:[{fields[9]}]")
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if any(os.readlink(fd) in inodes for fd in (entry / "fd").iterdir()):
                pids.append(int(entry.name))
        except OSError:
            continue
    return pids


def masters_of(pids: list[int]) -> list[int]:
    """Return the masters among the processes holding a listening socket (the workers' parents
    hold it too)."""
    def parent(pid: int) -> int:
        try:
            return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except OSError:
            return 0
    return [pid for pid in pids if parent(pid) not in pids]


def tree(pids: list[int]) -> list[int]:
    """Return ``pids`` and all their descendants."""
    found: list[int] = []
    todo = list(pids)
    while todo:
        pid = todo.pop()
        if pid not in found:
            found.append(pid)
            todo.extend(children(pid))
    return found


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


# --- the room ----------------------------------------------------------------------------------

class Room:
    """What the devices report, shared: when each first held a (hand, state), their answers."""

    def __init__(self, devices: int) -> None:
        self.lock = threading.Lock()
        self.seen: dict[tuple[int, str], dict[int, float]] = {}
        self.acked: set[tuple[int, int]] = set()
        self.answer_posts = 0
        self.refused: list[str] = []
        self.joined = 0
        # Each request's time as the client saw it, by what it was (304, 200, answer, action).
        self.took: dict[str, list[float]] = {"304": [], "200": [], "answer": [], "action": []}
        self.poll_ms = 0
        self.stop = threading.Event()
        self.devices = devices

    def timed(self, what: str, since: float) -> None:
        took = (time.monotonic() - since) * 1000
        with self.lock:
            self.took[what].append(took)

    def saw(self, device: int, number: int, state: str) -> None:
        now = time.monotonic()
        with self.lock:
            self.seen.setdefault((number, state), {}).setdefault(device, now)

    def holding(self, number: int, state: str) -> dict[int, float]:
        with self.lock:
            return dict(self.seen.get((number, state), {}))

    def answered(self, number: int) -> int:
        with self.lock:
            return sum(1 for _, n in self.acked if n == number)


def answer_for(hand_html: str, rng: random.Random) -> dict[str, Any] | None:
    """Return an answer to the hand from its own HTML: one of its choices, else a front of
    two of its cards."""
    choices = [json.loads(html.unescape(c)) for c in CHOICE.findall(hand_html)]
    if choices:
        choice: dict[str, Any] = rng.choice(choices)
        return choice
    cards = CARD.findall(hand_html)[:7]
    return {"front": rng.sample(cards, 2)} if len(cards) == 7 else None


def device(room: Room, index: int, url: str, class_id: int, seed: int, think: float) -> None:
    """One trainee's tablet: sign in, join, poll, answer each hand (one in five changes it)."""
    rng = random.Random(seed * 1_000_003 + index)
    client = signed_in(url, f"class-load{index}")
    client.page("/class/")
    status, _, _ = client.post_form(f"/class/{class_id}/join")
    if status != 302:
        raise SystemExit(f"device {index} could not join ({status})")
    with room.lock:
        room.joined += 1
    token: str | None = None
    poll_ms = 750
    hand: dict[str, Any] | None = None
    plan: list[float] = []  # when to answer (again) the open hand
    next_poll = time.monotonic() + rng.uniform(0, poll_ms / 1000)
    while not room.stop.is_set():
        now = time.monotonic()
        if plan and (hand is None or hand["state"] != "open"):
            plan = []  # locked before this device answered: nothing more to send
        if plan and plan[0] <= now and hand is not None:
            plan.pop(0)
            given = answer_for(hand["html"], rng)
            if given is not None:
                sent = time.monotonic()
                status, data = send_json(client, f"/class/{class_id}/answer",
                                         {"hand": hand["number"], "answer": given, "token": token})
                room.timed("answer", sent)
                if status == 200 and data.get("token"):
                    token = data["token"]  # as classroom.js: up to date, nothing to ask
                with room.lock:
                    room.answer_posts += 1
                    if status == 200:
                        room.acked.add((index, hand["number"]))
                    else:
                        room.refused.append(f"answer {status}: {(data or {}).get('message')}")
            continue
        if now < next_poll:
            wait = next_poll - now if not plan else min(next_poll, plan[0]) - now
            room.stop.wait(max(0.0, wait))
            continue
        headers = {"Accept": "application/json"}
        if token:
            headers["If-None-Match"] = f'"{token}"'
        sent = time.monotonic()
        status, _, data = client.request("GET", f"/class/{class_id}/state", headers=headers)
        room.timed(str(status) if status in (200, 304) else "200", sent)
        if status == 200:
            state = json.loads(data)
            token, poll_ms = state["token"], state["poll_ms"]
            room.poll_ms = poll_ms
            got = state["hand"]
            if got is not None:
                room.saw(index, got["number"], got["state"])
                if hand is not None and got["number"] == hand["number"]:
                    got.setdefault("html", hand["html"])  # left out: this device holds it
                elif "html" not in got:  # as classroom.js: ask again for the whole hand
                    token = None
                    continue
                if hand is None or got["number"] != hand["number"]:
                    first = rng.uniform(0.3, think)
                    plan = [now + first] + ([now + first + rng.uniform(0.3, 1.0)]
                                            if rng.random() < 0.2 else [])
                hand = got
        elif status != 304:
            with room.lock:
                room.refused.append(f"state {status}")
        next_poll = time.monotonic() + poll_ms / 1000


def projector(room: Room, client: Browser, class_id: int) -> None:
    """The projector's poll beside the devices."""
    token = None
    while not room.stop.is_set():
        headers: dict[str, str] = {"If-None-Match": f'"{token}"'} if token else {}
        status, _, data = client.request("GET", f"/class/{class_id}/live", headers=headers)
        if status == 200:
            token = json.loads(data)["token"]
        room.stop.wait((room.poll_ms or 750) / 1000)


def wait_all(room: Room, number: int, state: str, timeout: float) -> dict[int, float]:
    """Wait until every device holds (hand, state), or ``timeout``; return who holds it when."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        held = room.holding(number, state)
        if len(held) == room.devices:
            return held
        time.sleep(0.02)
    return room.holding(number, state)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--devices", type=int, default=40)
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--url", action="append", required=True,
                        help="a server's URL; twice for two servers (devices split between them)")
    parser.add_argument("--server-pid", type=int, action="append", default=None,
                        help="a gunicorn master's pid (default: found by the URLs' ports)")
    parser.add_argument("--think", type=float, default=5.0,
                        help="a device answers 0.3 s to this many seconds after it saw the hand")
    parser.add_argument("--pause", type=float, default=3.0,
                        help="seconds the instructor talks over a revealed hand before the next")
    parser.add_argument("--timeout", type=float, default=15.0,
                        help="how long the instructor waits for every device to hold a change")
    parser.add_argument("--kinds", default=",".join(KINDS))
    args = parser.parse_args()
    kinds = [k for k in args.kinds.split(",") if k]
    group_id = prepare(args.devices)
    masters = args.server_pid or masters_of([pid for url in args.url
                                             for pid in listeners(urlsplit(url).port or 80)])
    if not masters:
        raise SystemExit("no server process listens on the URLs' ports: give --server-pid")

    teacher = signed_in(args.url[0], SUPERVISOR)
    teacher.page(f"/class/groups/{group_id}")
    class_id = start(teacher, group_id)
    if not _fresh(teacher, class_id):  # a class left running by an interrupted run
        teacher.post_form(f"/class/{class_id}/end")
        class_id = start(teacher, group_id)

    room = Room(args.devices)
    threads = [threading.Thread(target=device, args=(room, i, args.url[i % len(args.url)],
                                                     class_id, args.seed, args.think),
                                daemon=True) for i in range(args.devices)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 120
    while room.joined < args.devices and time.monotonic() < deadline:
        time.sleep(0.1)
    # The projector's poll and the drive share the instructor's one connection.
    teacher.request = _serialised(teacher.request)  # type: ignore[method-assign]
    watcher = threading.Thread(target=projector, args=(room, teacher, class_id), daemon=True)

    load_before = loadavg()
    server = tree(masters)
    cpu_before = cpu_seconds(server)
    mine_before = os.times()
    started = time.monotonic()
    watcher.start()
    updates: list[float] = []
    missing = 0
    def act(action: str, body: dict[str, Any], number: int, state: str) -> None:
        nonlocal missing
        sent = time.monotonic()
        status, data = send_json(teacher, f"/class/{class_id}/{action}", body)
        room.timed("action", sent)
        if status != 200:
            raise SystemExit(f"{action} refused ({status}): {data}")
        held = wait_all(room, number, state, args.timeout)
        missing += args.devices - len(held)
        updates.append(((max(held.values()) if held else sent + args.timeout) - sent) * 1000)

    for number in range(1, args.hands + 1):
        kind = kinds[((number - 1) // 2) % len(kinds)]
        if number % 2:
            act("deal", {"kind": kind, "how": "random"}, number, "open")
        else:
            act("next", {}, number, "open")
        end = time.monotonic() + args.think + args.timeout
        while room.answered(number) < args.devices and time.monotonic() < end:
            time.sleep(0.05)
        time.sleep(1.2)  # a changed answer in flight lands before the lock
        act("lock", {}, number, "locked")
        time.sleep(0.3)
        act("reveal", {}, number, "revealed")
        time.sleep(args.pause)
    wall = time.monotonic() - started
    room.stop.set()
    cpu_after = cpu_seconds(server)
    mine_after = os.times()
    load_after = loadavg()
    for thread in threads:
        thread.join(timeout=5)
    watcher.join(timeout=5)
    teacher.page(f"/class/{class_id}")
    teacher.post_form(f"/class/{class_id}/end")
    workers = [pid for pid in tree(masters) if pid not in masters]
    recorded, doubled = records(class_id)
    acked = {(f"class-load{i}", n) for i, n in room.acked}
    server_cpu = sum(cpu_after.get(p, 0.0) - cpu_before.get(p, 0.0) for p in cpu_before)
    result = {
        "devices": args.devices, "hands": args.hands, "answers_sent": len(acked),
        "answers_recorded": len(recorded), "lost": len(acked - recorded), "doubled": doubled,
        "p95_update_ms": round(percentile(updates, 95)), "poll_interval_ms": room.poll_ms,
        "server_cpu_s": round(server_cpu, 1),
        "servers": len(args.url), "wall_s": round(wall, 1),
        "server_cpu_share_of_one_core": round(server_cpu / wall, 3),
        "max_update_ms": round(max(updates, default=0)), "actions": len(updates),
        "updates_missing": missing, "answer_posts": room.answer_posts,
        "recorded_not_acknowledged": len(recorded - acked),
        "refused": room.refused[:5], "refusals": len(room.refused),
        "request_ms_p50_p95": {what: [round(percentile(v, 50), 1), round(percentile(v, 95), 1), len(v)]
                               for what, v in room.took.items()},
        "client_cpu_s": round(sum(mine_after[:4]) - sum(mine_before[:4]), 1),
        "loadavg_before": load_before, "loadavg_after": load_after,
        "worker_rss_mb": round(max((rss_mb(p) for p in workers), default=0.0), 1),
        "think_s": args.think, "pause_s": args.pause, "seed": args.seed, "class_id": class_id,
    }
    print(json.dumps(result))
    ok = (result["lost"] == 0 and result["doubled"] == 0 and result["p95_update_ms"] <= 1000
          and not missing)
    return 0 if ok else 1


def _fresh(client: Browser, class_id: int) -> bool:
    """Tell whether the class has no hand dealt yet (a new class, not one left running)."""
    status, _, data = client.request("GET", f"/class/{class_id}/live")
    return status == 200 and json.loads(data)["number"] == 0


def start(client: Browser, group_id: int) -> int:
    """Start the group's class (or open the running one); return its id."""
    _, headers, _ = client.post_form(f"/class/groups/{group_id}/start")
    found = CLASS_ID.search(headers.get("Location", ""))
    if found is None:
        raise SystemExit("the class could not be started")
    return int(found.group(1))


def _serialised(send: Any) -> Any:
    """Serialise a client's requests (one connection, two threads)."""
    lock = threading.RLock()

    def request(*args: Any, **kwargs: Any) -> Any:
        with lock:
            return send(*args, **kwargs)
    return request


if __name__ == "__main__":
    sys.exit(main())
