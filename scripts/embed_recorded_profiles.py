#!/usr/bin/env python3
"""Puts recorded profiles into the embedded default session (resources/default_session.json), so that
a new user sees every profile view (stall sampling per line, per-instruction memory metrics,
"Why not cuBLAS?") without a GPU.

Each input file holds one runner `profile` event (docs/protocol.md, "Profile"), as
`gemmscope-runner` answered a `profile` job: a JSON object, or JSON lines of which the `profile`
event is taken (a runner transcript). A gemmscope-bench --profile --json file (its "profiles") is
read too. Every event goes into the session's "profiles" as {"origin": "recorded", "event": ...};
one of the same configuration (stage, parameters, size, GPU, build, TF32 rounding) already there is
replaced, the others are kept. The events are copied as recorded, except that --prune-unexecuted
leaves out instructions that were neither sampled nor executed (every stall and metric 0: code
the launch never reached), which carry no measurement.

    scripts/embed_recorded_profiles.py [--session resources/default_session.json]
                                       [--prune-unexecuted] FILE...

Run from the repository root. The session is rewritten with its profiles one per line (compact)
and everything else as before (indented, keys sorted), so that the file stays readable and small;
scripts/embed_recorded_sweeps.py writes it the same way. Then rebuild (the session is a Qt
resource) and check: `ctest -R tst_session_profiles` loads it and finds each profile's baseline.
"""
import argparse
import json
import os
import re
import sys

SESSION = "resources/default_session.json"


def profile_events(path):
    """The profile events of one file: an event, a bench file's "profiles", or JSON lines."""
    with open(path) as f:
        text = f.read()
    try:
        doc = json.loads(text)
        docs = [doc]
    except json.JSONDecodeError:
        docs = [json.loads(line) for line in text.splitlines() if line.strip()]
    events = []
    for doc in docs:
        if isinstance(doc, dict) and doc.get("format") == "gemmscope-bench":
            events += doc.get("profiles", [])
        elif isinstance(doc, dict) and doc.get("event") == "profile":
            events.append(doc)
    if not events:
        sys.exit(f"{path}: no profile event in it.")
    for ev in events:
        size = ev.get("size") or {}
        if not ev.get("stage") or not all(isinstance(size.get(d), int) and size[d] > 0 for d in "mnk"):
            sys.exit(f"{path}: a profile event without a stage or a size.")
        if not (ev.get("gpu") or {}).get("name"):
            sys.exit(f"{path}: the profile of {ev['stage']} names no GPU; \"Why not cuBLAS?\" needs one.")
    return events


def key_of(ev):
    """The configuration a profile sampled, as the session's ProfileKey compares it (close enough:
    the runner echoes build and rounding as asked)."""
    library = ev["stage"].startswith("cublas")
    build = "" if library else (ev.get("build") or "release")
    return (ev["stage"], json.dumps({} if library else ev.get("params", {}), sort_keys=True),
            json.dumps(ev["size"], sort_keys=True), ev["gpu"]["name"], build, ev.get("tf32_rounding") or "")


def unexecuted(ins):
    return not any(ins.get("stalls", {}).values()) and not any(ins.get("metrics", {}).values())


def write_session(path, session):
    """Indented, keys sorted, except "profiles": one compact line per profile (a profile holds
    thousands of instructions; indented, the embedded session would triple)."""
    profiles = session.get("profiles")
    rest = {k: v for k, v in session.items() if k != "profiles"}
    text = json.dumps(rest, indent=1, sort_keys=True)
    if profiles:
        lines = ",\n".join("  " + json.dumps(p, sort_keys=True, separators=(",", ":")) for p in profiles)
        assert text.endswith("\n}")
        text = text[:-2] + ',\n "profiles": [\n' + lines + "\n ]\n}"
    with open(path, "w") as f:
        f.write(text + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--session", default=SESSION)
    parser.add_argument("--prune-unexecuted", action="store_true")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()

    with open(args.session) as f:
        session = json.load(f)
    profiles = session.get("profiles", [])
    added = []
    labels = {}  # stage -> what the note calls it: "fp32-tuned" from profile-fp32-tuned.json
    for path in args.files:
        name = re.fullmatch(r"profile-(.+)\.json", os.path.basename(path))
        for ev in profile_events(path):
            labels[ev["stage"]] = name.group(1) if name else ev["stage"]
            if args.prune_unexecuted:
                ev = dict(ev, instructions=[i for i in ev.get("instructions", []) if not unexecuted(i)])
            profiles = [p for p in profiles if key_of(p["event"]) != key_of(ev)]
            profiles.append({"origin": "recorded", "event": ev})
            added.append(ev)
    # Stable order: GemmScope's stages in the order given, the cuBLAS baselines last.
    profiles.sort(key=lambda p: p["event"]["stage"].startswith("cublas"))
    session["profiles"] = profiles

    gpus = sorted({p["event"]["gpu"]["name"] for p in profiles})
    dates = sorted({p["event"].get("timestamp", "")[:10] for p in profiles} - {""})
    note = (" Profiles: recorded with gemmscope-runner's profile job (CUPTI PC sampling, SASS metrics, "
            "limiters) on %s%s, for %s; Run > Profile (Ctrl+P) adds your own."
            % (", ".join(gpus), (" on " + ", ".join(dates)) if dates else "",
               ", ".join(labels.get(p["event"]["stage"], p["event"]["stage"]) for p in profiles)))
    description = session.get("description", "")
    cut = description.find(" Profiles: ")
    if cut >= 0:  # the note of an earlier merge, replaced
        end = description.find("adds your own.", cut)
        description = description[:cut] + description[end + len("adds your own."):]
    session["description"] = description + note
    write_session(args.session, session)
    for ev in added:
        print(f"{args.session}: {ev['stage']} {ev.get('params', {})} at {ev['size']['m']}x{ev['size']['n']}x"
              f"{ev['size']['k']} on {ev['gpu']['name']}: {len(ev.get('instructions', []))} instructions",
              file=sys.stderr)
    print(f"{args.session}: {len(profiles)} profiles", file=sys.stderr)


if __name__ == "__main__":
    main()
