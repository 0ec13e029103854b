#!/usr/bin/env python3
"""The tests' one stand-in for gemmscope-runner: speaks protocol v1 on stdin/stdout (docs/protocol.md)
without a GPU. Used through tests/support/stand_in_runner.h by every test that needs a runner that
is not the real one (RunnerClient, its watchdog, gemmscope-bench, the sweeps and their views).

It says `ready` (a GPU of 132 SMs), answers each `run` with a `result` and `quit` ends it. The rest
of its behaviour comes from the environment, so that one file serves every test:

  FAKE_GPU_NAME, FAKE_GPU_UUID, FAKE_HOST   what `ready` and each result say (defaults below;
                  an empty FAKE_HOST names no host)
  FAKE_PROTOCOL   the protocol version `ready` says, as JSON text (default 1; 1.5 or "1" for the
                  version checks)
  FAKE_NO_GPU     `ready` says there is no GPU (gpu_error no_gpu)
  FAKE_STARTS     a file counting this runner's starts (the test reads it)
  FAKE_SILENT_STARTS  the first N starts (by FAKE_STARTS) never say `ready`: a hung start-up
  FAKE_LOG        every run request is appended here, one line "stage|BM=.. BN=..", so a test can
                  tell exactly which configurations reached a runner
  FAKE_DELAY_S    seconds each run takes (default 0)
  FAKE_PROGRESS   N > 0: each run first sends `compiled`, then N timing `progress` events (with a
                  preliminary median) spread over FAKE_DELAY_S, then its result
  FAKE_MEDIAN_MS  every run's median (default: a fixed function of the configuration's parameters,
                  so runs of one configuration on two stand-ins agree)
  FAKE_SLOWDOWN   multiplies every median (a slower GPU)
  FAKE_REGISTERS  every kernel's registers (default: 128 where TM*TN >= 32, else 64)
  FAKE_FAIL_KIND  every run of a stage other than cuBLAS FP32 ends with an error of this kind
  FAKE_DIE_AFTER  after this many results over all its starts (FAKE_STATE counts them), the
                  runner kills itself with SIGKILL while the next run is in its hands: kill -9
  FAKE_STATE      a file that counts results across restarts (needed with FAKE_DIE_AFTER)
  FAKE_LINE_BYTES the length of the endless line of seed 103 (default 64 MiB + 1)

A run's seed picks a misbehaviour: 101 hangs, 102 is killed by SIGKILL, 103 writes a line without
end and hangs.

A `profile` request is answered like the real runner's: `compiled` (not for cuBLAS),
`progress` in the phases compile, stalls, instructions, limiters, then one canned `profile` event
of seven instructions on seven lines of the stage (cuBLAS's without source lines and per-instruction metrics),
whose sample counts are a fixed function of the configuration. Its seed picks the same
misbehaviours as a run's (101 hangs, 102 is killed mid-profile: the crash hook; 104 reports a
device fault and then hangs instead of exiting, as an older runner's relay did); and
  FAKE_PROFILE_FAIL_KIND  every profile ends with an error of this kind (e.g. launch_error)
  FAKE_PROFILE_CRASH      the profile of this stage key is killed (SIGKILL) mid-profile, at "stalls"
  FAKE_PROFILE_LOG        every profile request is appended here, one line "stage|WxHxK" Parameters TM*TN >= 64 "spill"; BM = 256 gives a wrong result. A `fault` request is
a device fault (error device_fault, or FAKE_FAULT_KIND's kind such as kernel_timeout, then exit
status 3); `ceilings` is answered with an error (no
ceilings here); `cancel` is ignored, as a runner busy in a job would.
"""
import json
import os
import signal
import sys
import time

env = os.environ.get


def out(o):
    sys.stdout.write(json.dumps(o) + "\n")
    sys.stdout.flush()


def read_count(path):
    try:
        return int(open(path).read())
    except Exception:
        return 0


starts_file = env("FAKE_STARTS")
if starts_file:
    starts = read_count(starts_file)
    open(starts_file, "w").write(str(starts + 1))
    if starts < int(env("FAKE_SILENT_STARTS", "0")):
        time.sleep(3600)

gpu = {"name": env("FAKE_GPU_NAME", "Fake GPU"), "arch": "sm_90", "uuid": env("FAKE_GPU_UUID", "GPU-fake-0")}
host = env("FAKE_HOST", "fakehost")
state = env("FAKE_STATE")
die_after = int(env("FAKE_DIE_AFTER", "0"))
delay_s = float(env("FAKE_DELAY_S", "0"))
progress_steps = int(env("FAKE_PROGRESS", "0"))
fail_kind = env("FAKE_FAIL_KIND")

if env("FAKE_NO_GPU"):
    out({"event": "ready", "protocol": json.loads(env("FAKE_PROTOCOL", "1")), "runner": "stand-in", "nvrtc": "13.0",
         "host": host, "gpu": None,
         "gpu_error": {"kind": "no_gpu", "message": "No CUDA driver is installed on this machine."}})
else:
    out({"event": "ready", "protocol": json.loads(env("FAKE_PROTOCOL", "1")), "runner": "stand-in", "nvrtc": "13.0",
         "host": host, "gpu": dict(gpu, sms=132, cc=90)})


def endless_line():
    n = int(env("FAKE_LINE_BYTES", "0")) or (64 * 1024 * 1024 + 1)
    chunk = "x" * (1 << 20)
    while n > 0:
        sys.stdout.write(chunk[:min(n, len(chunk))])
        n -= len(chunk)
    sys.stdout.flush()
    time.sleep(3600)


def median_of(stage, p):
    slow = float(env("FAKE_SLOWDOWN", "1"))
    if env("FAKE_MEDIAN_MS"):
        return float(env("FAKE_MEDIAN_MS")) * slow
    if stage == "cublas_fp32":
        return 1.0 * slow
    spread = (p.get("BM", 0) * 7 + p.get("BN", 0) * 3 + p.get("BK", 0) + p.get("TM", 0) * 5 + p.get("TN", 0) * 11) % 17
    return (1.0 + spread / 10.0) * slow


def compiled_of(stage, p):
    tm, tn = p.get("TM", 1), p.get("TN", 1)
    registers = int(env("FAKE_REGISTERS", "0")) or (128 if tm * tn >= 32 else 64)
    return {"stage": stage, "kernel": "k", "arch": "sm_90", "cache_hit": False, "compile_ms": 1.0,
            "registers": registers, "spill_store_bytes": 16 if tm * tn >= 64 else 0,
            "spill_load_bytes": 16 if tm * tn >= 64 else 0, "stack_frame_bytes": 0, "static_smem_bytes": 4096,
            "occupancy": {"blocks_per_sm": 1, "active_warps": 8, "max_warps": 64, "fraction": 0.125,
                          "limiter": "registers" if tm * tn >= 32 else "shared_memory"}}


def run(req):
    p = req.get("params", {})
    stage = req["stage"]
    seed = req.get("seed", 1)
    if seed == 101:
        time.sleep(3600)
    if seed == 102:
        os.kill(os.getpid(), signal.SIGKILL)
    if seed == 103:
        endless_line()
    if env("FAKE_LOG"):
        with open(env("FAKE_LOG"), "a") as f:
            f.write(stage + "|" + " ".join("%s=%d" % (k, p[k]) for k in sorted(p)) + "\n")
    if die_after and state and read_count(state) == die_after:
        open(state, "w").write(str(die_after + 1))
        os.kill(os.getpid(), signal.SIGKILL)
    median = median_of(stage, p)
    compiled = compiled_of(stage, p) if stage != "cublas_fp32" else None
    if progress_steps > 0:
        if compiled:
            out(dict(compiled, event="compiled", id=req["id"]))
        for i in range(progress_steps):
            time.sleep(delay_s / progress_steps)
            out({"event": "progress", "id": req["id"], "phase": "timing", "done": i + 1, "total": progress_steps,
                 "preliminary_median_ms": median + 0.01 * i})
    else:
        time.sleep(delay_s)
    if state:
        results = read_count(state)  # before open(..., "w") empties the file
        open(state, "w").write(str(results + 1))
    if fail_kind and stage != "cublas_fp32":
        out({"event": "error", "id": req["id"], "kind": fail_kind, "message": "The stand-in fails this stage."})
        return
    if p.get("BM") == 256:
        out({"event": "error", "id": req["id"], "kind": "wrong_result", "message": "C differs from cuBLAS.",
             "rel_error": 0.5, "tolerance": 1e-5, "nan": False})
        return
    s = req["size"]
    flops = 2.0 * s["m"] * s["n"] * s["k"]
    ev = {"event": "result", "id": req["id"], "stage": stage, "params": p, "size": s, "gpu": gpu,
          "timing": {"median_ms": median, "p20_ms": median * 0.99, "p80_ms": median * 1.01, "min_ms": median * 0.98,
                     "count": 20, "warmup": 2},
          "tflops": flops / (median * 1e-3) / 1e12,
          "verify": {"reference": "cublas_fp32_pedantic", "rel_error": 1e-7, "tolerance": 1e-5, "passed": True},
          "timestamp": "2026-12-01T00:00:00Z"}
    if compiled:
        ev["compiled"] = compiled
    out(ev)


def profile(req):
    p = req.get("params", {})
    stage = req["stage"]
    seed = req.get("seed", 1)
    s = req["size"]
    if env("FAKE_PROFILE_LOG"):
        with open(env("FAKE_PROFILE_LOG"), "a") as f:
            f.write("%s|%dx%dx%d\n" % (stage, s["m"], s["n"], s["k"]))
    library = stage.startswith("cublas")
    if not library:
        out(dict(compiled_of(stage, p), event="compiled", id=req["id"]))
    phases = ["compile", "stalls", "instructions", "limiters"]
    for i, phase in enumerate(phases):
        if (seed == 102 or env("FAKE_PROFILE_CRASH") == stage) and phase == "stalls":
            os.kill(os.getpid(), signal.SIGKILL)  # killed mid-profile
        if seed == 101 and phase == "stalls":
            time.sleep(3600)
        if seed == 104 and phase == "stalls":
            out({"event": "error", "id": req["id"], "kind": "device_fault",
                 "message": "an illegal memory access was encountered"})
            time.sleep(3600)
        time.sleep(delay_s / len(phases))
        out({"event": "progress", "id": req["id"], "phase": phase, "done": i + 1, "total": len(phases)})
    if env("FAKE_PROFILE_FAIL_KIND"):
        out({"event": "error", "id": req["id"], "kind": env("FAKE_PROFILE_FAIL_KIND"),
             "message": "The stand-in cannot profile here."})
        return
    scale = 1 + int(median_of(stage, p) * 10)
    fn = ("sm90_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize128x128x8_stage3_ffma_kernel" if library
          else "gemmscope::%s_kernel<%s>" % (stage, ", ".join(str(p[k]) for k in sorted(p))))
    rows = [(1648, "LDS.128 R24, [R3+0x10]", 41, {"mio_throttle": 300 * scale, "not_selected": 100 * scale,
                                                  "selected": 10 * scale},
             {"inst_executed": 4096, "l1tex_pipe_lsu_wavefronts_mem_shared": 16384,
              "l1tex_pipe_lsu_wavefronts_mem_shared_ideal": 4096, "inst_executed_op_shared_ld": 4096}),
            (1664, "FFMA R40, R24, R8, R40", 43, {"math_pipe_throttle": 200 * scale, "selected": 50 * scale},
             {"inst_executed": 65536}),
            (512, "LDG.E R4, [R2.64]", 30, {"long_scoreboard": 120 * scale, "barrier": 30 * scale},
             {"inst_executed": 512, "sectors_mem_global": 2048, "sectors_mem_global_ideal": 2048,
              "inst_executed_op_global_ld": 512})]
    # Seven lines in all, so that a "top 5" has something to leave out; the last ones are cold.
    rows += [(2048 + 16 * n, "IADD3 R%d, R%d, 0x1, RZ" % (n, n), 50 + n, {"wait": (7 - n) * scale},
              {"inst_executed": 64}) for n in range(4)]
    instructions = []
    for pc, sass, line, stalls, metrics in rows:
        ins = {"function": fn, "pc": pc, "sass": sass, "stalls": stalls}
        if not library:
            ins.update({"file": stage + ".cuh", "line": line, "metrics": metrics})
        instructions.append(ins)
    total = sum(sum(i["stalls"].values()) for i in instructions)
    ev = {"event": "profile", "id": req["id"], "stage": stage, "params": p, "size": s, "gpu": gpu, "arch": "sm_90",
          "sampling_period": req.get("sampling_period", 10), "total_samples": total, "dropped_samples": 0,
          "instructions": instructions,
          "limiters": {"sm__warps_active.avg.pct_of_peak_sustained_active": 40.0 if library else 24.6,
                       "sm__inst_issued.avg.pct_of_peak_sustained_active": 80.0 if library else 71.2},
          "duration_ms": 1840.2, "timestamp": "2026-12-01T21:10:00Z"}
    if not library:
        ev["build"] = req.get("build", "release")
    else:
        ev["instructions_error"] = "Per-instruction metrics need GemmScope's own kernels: cuBLAS's are not instrumented."
    if req.get("tf32_rounding"):
        ev["tf32_rounding"] = req["tf32_rounding"]
    out(ev)


for line in sys.stdin:
    req = json.loads(line)
    t = req.get("type")
    if t == "quit":
        break
    if t == "fault":
        kind = env("FAKE_FAULT_KIND", "device_fault")
        out({"event": "error", "id": req["id"], "kind": kind,
             "message": "An illegal memory access was encountered." if kind == "device_fault" else
             "The kernel did not finish within 20 s; it was stopped and the runner restarted."})
        sys.exit(3)
    if t == "ceilings":
        out({"event": "error", "id": req["id"], "kind": "launch_error", "message": "no ceilings here"})
    elif t == "run":
        run(req)
    elif t == "profile":
        profile(req)
