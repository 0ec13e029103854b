// Test helper: a scripted stand-in for gemmscope-runner (python3) that answers `run` requests the
// way a sweep needs, without a GPU. Its behaviour comes from the environment:
//   FAKE_GPU_NAME, FAKE_GPU_UUID, FAKE_HOST   what `ready` and each result say (defaults below)
//   FAKE_LOG        every run request it receives is appended here, one line "stage|BM=.. BN=..",
//                   so a test can tell exactly which configurations reached a runner
//   FAKE_DELAY_S    seconds each run takes (default 0)
//   FAKE_SLOWDOWN   multiplies every median (a slower GPU)
//   FAKE_DIE_AFTER  after this many results over all its starts (FAKE_STATE counts them), the
//                   runner kills itself with SIGKILL while the next run is in its hands: kill -9
//   FAKE_STATE      a file that counts results across restarts (needed with FAKE_DIE_AFTER)
// The median of a configuration is a fixed function of its parameters, so runs of the same
// configuration on two stand-ins agree; TM*TN >= 64 "spills", BM = 256 gives a wrong result.
#pragma once

#include <QFile>
#include <QStandardPaths>
#include <QString>

inline const char *kSweepStandInScript = R"PY(
import json, os, signal, sys, time
env = os.environ.get
def out(o):
    sys.stdout.write(json.dumps(o) + "\n"); sys.stdout.flush()
gpu = {"name": env("FAKE_GPU_NAME", "Fake GPU"), "arch": "sm_90", "uuid": env("FAKE_GPU_UUID", "GPU-fake-0")}
host = env("FAKE_HOST", "fakehost")
state = env("FAKE_STATE")
die_after = int(env("FAKE_DIE_AFTER", "0"))
def results_so_far():
    try:
        return int(open(state).read())
    except Exception:
        return 0
out({"event": "ready", "protocol": 1, "runner": "stand-in", "nvrtc": "13.0", "host": host,
     "gpu": dict(gpu, sms=132, cc=90)})
for line in sys.stdin:
    req = json.loads(line)
    t = req.get("type")
    if t == "quit":
        break
    if t != "run":
        continue
    p = req.get("params", {})
    key = req["stage"] + "|" + " ".join("%s=%d" % (k, p[k]) for k in sorted(p))
    if env("FAKE_LOG"):
        with open(env("FAKE_LOG"), "a") as f:
            f.write(key + "\n")
    if die_after and state and results_so_far() == die_after:
        open(state, "w").write(str(die_after + 1))
        os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(float(env("FAKE_DELAY_S", "0")))
    slow = float(env("FAKE_SLOWDOWN", "1"))
    if req["stage"] == "cublas_fp32":
        median = 1.0 * slow
    else:
        median = (1.0 + ((p.get("BM", 0) * 7 + p.get("BN", 0) * 3 + p.get("BK", 0) + p.get("TM", 0) * 5 + p.get("TN", 0) * 11) % 17) / 10.0) * slow
    s = req["size"]
    flops = 2.0 * s["m"] * s["n"] * s["k"]
    tm, tn = p.get("TM", 1), p.get("TN", 1)
    compiled = {"stage": req["stage"], "kernel": "k", "arch": "sm_90", "cache_hit": False, "compile_ms": 1.0,
                "registers": 128 if tm * tn >= 32 else 64, "spill_store_bytes": 16 if tm * tn >= 64 else 0,
                "spill_load_bytes": 16 if tm * tn >= 64 else 0, "stack_frame_bytes": 0, "static_smem_bytes": 4096,
                "occupancy": {"blocks_per_sm": 1, "active_warps": 8, "max_warps": 64, "fraction": 0.125,
                              "limiter": "registers" if tm * tn >= 32 else "shared_memory"}}
    if state:
        n = results_so_far()
        open(state, "w").write(str(n + 1))
    if p.get("BM") == 256:
        out({"event": "error", "id": req["id"], "kind": "wrong_result", "message": "C differs from cuBLAS.",
             "rel_error": 0.5, "tolerance": 1e-5, "nan": False})
        continue
    ev = {"event": "result", "id": req["id"], "stage": req["stage"], "params": p, "size": s, "gpu": gpu,
          "timing": {"median_ms": median, "p20_ms": median * 0.99, "p80_ms": median * 1.01, "min_ms": median * 0.98,
                     "count": 20, "warmup": 2},
          "tflops": flops / (median * 1e-3) / 1e12,
          "verify": {"reference": "cublas_fp32_pedantic", "rel_error": 1e-7, "tolerance": 1e-5, "passed": True},
          "timestamp": "2026-12-01T00:00:00Z"}
    if req["stage"] != "cublas_fp32":
        ev["compiled"] = compiled
    out(ev)
)PY";

// Writes the stand-in to `dir` and returns its path, or an empty string without python3.
inline QString writeSweepStandIn(const QString &dir)
{
    if (QStandardPaths::findExecutable(QStringLiteral("python3")).isEmpty())
        return {};
    const QString path = dir + QStringLiteral("/stand_in_runner.py");
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(kSweepStandInScript);
    return path;
}
