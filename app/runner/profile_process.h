// A `profile` job run by a child runner (docs/protocol.md "Profile"): a fresh process gives CUPTI
// a fresh context for every profile and keeps a faulting profiled kernel from poisoning the
// runner's own context.
#pragma once

#include "protocol.h"
#include "requests.h"

#include <QString>

namespace gemmscope::runner {

class JobContext;
struct RunnerState;

// How the runner starts and bounds its profile children. The protocol's limits by default; the
// runner's command line can name another program and shorter limits (tests use a stand-in child
// that faults, hangs or floods, and cannot wait minutes for a limit).
struct ProfileChildOptions {
    QString program; // empty: this runner's own executable
    int silenceLimitMs = protocol::kProfileSilenceLimitMs;
    int timeLimitMs = protocol::kProfileTimeLimitMs;
    int exitGraceMs = protocol::kProfileExitGraceMs;
    // This runner is itself a profile child (its command line said --profile-in-process): a
    // profile job runs here, under CUPTI.
    bool inThisProcess = false;
};

// The option the parent gives a child runner so that it profiles in its own process.
inline constexpr char kProfileInProcessOption[] = "profile-in-process";

// Starts the child with --profile-in-process through the one process transport, hands
// it the request and relays what a profile may send — `compiled`, `progress`, then exactly one
// `profile` or `error` — as this job's. Anything else it sends (a `result`, a line over the
// protocol's cap), silence past the limit, or no answer within the time limit stops it with a
// RunnerError saying which. A device fault in the child is one in this runner too: it is thrown as
// device_fault, so the runner ends as the protocol says (status 3) and its client restarts it.
// Cancel kills the child; the child never outlives the runner.
void relayProfileFromChild(RunnerState &state, const protocol::ProfileJob &request, JobContext &job);

} // namespace gemmscope::runner
