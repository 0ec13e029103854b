// A `profile` event (protocol::ProfileEvent, docs/protocol.md "Profile") read the way a user asks
// about it: where the time goes (PC samples by stall reason over the kernel, in words), which
// source lines and SASS instructions they fall on, and how each global and shared memory
// instruction does against its ideal (sectors per request, wavefronts per request) with a verdict
// in words; beside them, where a stage has an access model (kernels/access_model.h), the model's
// figure for the same class of access. The measured figures never need the model.
//
// Values come from files and runners: a NaN, a negative or an infinite count is treated as no
// count (0 samples, an absent metric); nothing here throws or divides by zero.
#pragma once

// The analysis is in three parts, one job each; this header brings all three.
#include "profile_baseline.h"
#include "profile_memory.h"
#include "profile_stalls.h"
