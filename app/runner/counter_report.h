// The `counters` object of a `result` event (docs/protocol.md): the roofline's measured
// arithmetic intensity from hardware counters, next to the raw metric values it came from.
// Pure formatting, no CUDA, so it is tested without a GPU.
#pragma once

#include "counter_profiler.h"
#include "events.h"
#include "stage_catalog.h"

#include <string>
#include <vector>

namespace gemmscope::runner {

// The metrics one profiled launch reads (all verified on the H200):
//   dram__bytes_read.sum, dram__bytes_write.sum  - bytes moved between L2 and DRAM
//   lts__t_bytes.sum                             - bytes through the L2 slices (every L1<->L2 request)
//   sm__sass_thread_inst_executed_op_ffma_pred_on.sum - FFMA thread instructions (one per FMA)
//   l1tex__t_bytes.sum                           - bytes through L1 (global, local; not shared)
//   sm__sass_data_bytes_mem_shared.sum           - bytes the SASS shared loads and stores moved
// and the access model's quantities, each as a kernel-wide ratio (the same metrics as
// scripts/compare-counters.py reads with ncu):
//   l1tex__t_{sectors,requests}_pipe_lsu_mem_global_op_{ld,st}.sum - sectors per global request
//   l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum over
//   smsp__inst_executed_op_shared_{ld,st}.sum                      - wavefronts per shared instruction
const std::vector<std::string> &counterMetrics();

// FLOPs are the problem's nominal 2*M*N*K (what the roofline's x axis divides), not the FFMA
// count times two: a kernel that wastes FMAs on padding must not look more intense for it.
// The L1/shared intensity divides by the L1 and shared bytes together: on NVIDIA GPUs since Volta
// they are one SRAM with one bandwidth, the roofline's L1/shared roof.
// An intensity whose byte count is zero is null (nothing to divide by); so is an access ratio
// whose kernel made no such access. The ratios are under "access".
protocol::Counters countersOf(const CounterReading &reading, const ProblemSize &size);
protocol::Counters countersError(const QString &sentence);

} // namespace gemmscope::runner
