// CUPTI SASS metrics (cupti_sass_metrics.h) of one launch: CUPTI patches every instruction of the
// kernels and counts, per instruction, what each requested metric measures (executions, global
// sectors against the ideal, shared wavefronts against the ideal, ...), summed over the GPU.
// Used by the `profile` job (docs/protocol.md "Profile"); the patched kernels run many times
// slower, so this never happens during a timed launch.
//
// A failure is part of the answer, never its end: it comes back as a sentence. Only a CUDA error
// of the launch itself propagates.
#pragma once

#include <QString>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gemmscope::runner {

struct InstructionMetrics {
    std::string function; // as CUPTI names it (mangled)
    std::uint64_t pcOffset = 0;
    std::map<std::string, double> values; // "inst_executed", ...: smsp__sass_* without the prefix
};

struct SassMetricsOutcome {
    std::optional<std::vector<InstructionMetrics>> instructions;
    QString error; // when instructions is empty
};

// The metrics the profile asks for, by CUPTI's full names.
const std::vector<std::string> &profileSassMetrics();

SassMetricsOutcome collectSassMetrics(const std::function<void()> &launch,
                                      const std::vector<std::string> &metrics = profileSassMetrics());

} // namespace gemmscope::runner
