// The CUDA sources of every stage (kernels/cuda/*.cuh), built into the binary at compile time
// so that the runner never reads the source tree at run time.
#pragma once

#include <string_view>
#include <vector>

namespace gemmscope {

struct EmbeddedSource {
    std::string_view name; // "coalesced.cuh"
    std::string_view text;
};

const std::vector<EmbeddedSource> &embeddedKernelSources();
// The text of one file, or an empty view when there is no such file.
std::string_view embeddedKernelSource(std::string_view name);

} // namespace gemmscope
