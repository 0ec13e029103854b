// What the Editor workspace asks of the rest of the window: compile or run the kernel being
// edited. The workspace only asks, when the user presses Compile (Ctrl+B) or Run (Ctrl+R); the
// window's implementation hands the source to the runner (compile_job.h, run_actions.h).
#pragma once

#include "custom_stage.h"

namespace gemmscope {

class KernelActions {
public:
    virtual ~KernelActions() = default;
    virtual void compile(const CustomKernelSource &source) = 0;
    virtual void run(const CustomKernelSource &source) = 0;
};

} // namespace gemmscope
