// A `profile` job run by a child runner (docs/protocol.md "Profile"): a fresh process gives CUPTI
// a fresh context for every profile and keeps a faulting profiled kernel from ending the runner.
#pragma once

#include "requests.h"

namespace gemmscope::runner {

class JobContext;
struct RunnerState;

// True in the child (GEMMSCOPE_PROFILE_IN_PROCESS=1): the job runs here, under CUPTI.
bool profilesInThisProcess();

// Starts `gemmscope-runner` again with GEMMSCOPE_PROFILE_IN_PROCESS=1, hands it the request,
// relays its `compiled`, `progress`, `profile` and `error` events as this job's, and kills it on
// cancel. A child that ends without an answer is a RunnerError with a sentence saying how.
void relayProfileFromChild(RunnerState &state, const protocol::ProfileJob &request, JobContext &job);

} // namespace gemmscope::runner
