#include "gemm_inputs.h"

#include <algorithm>
#include <thread>

namespace gemmscope::runner {

namespace {

// splitmix64's finalizer: a well-mixed 64-bit hash of a counter.
std::uint64_t mix(std::uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

} // namespace

float inputValue(std::uint64_t seed, InputMatrix matrix, std::uint64_t index)
{
    const std::uint64_t h = mix(mix(seed ^ (static_cast<std::uint64_t>(matrix) << 56)) + index);
    // 24 random bits, forced odd: u in (0, 2^24). (2u - 2^24) / 2^24 lies in (-1, 1), is exactly
    // representable in a float (an even 25-bit integer) and is never zero because u is odd.
    const std::int64_t u = std::int64_t((h >> 40) | 1u);
    return float(double(2 * u - (std::int64_t(1) << 24)) / double(1 << 24));
}

std::vector<float> makeInput(std::uint64_t seed, InputMatrix matrix, std::uint64_t count)
{
    std::vector<float> values(count);
    const unsigned threads = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
    const std::uint64_t chunk = (count + threads - 1) / threads;
    std::vector<std::thread> workers;
    for (unsigned t = 0; t < threads; ++t) {
        const std::uint64_t begin = t * chunk, end = std::min(count, begin + chunk);
        if (begin >= end)
            break;
        workers.emplace_back([&values, seed, matrix, begin, end] {
            for (std::uint64_t i = begin; i < end; ++i)
                values[i] = inputValue(seed, matrix, i);
        });
    }
    for (auto &w : workers)
        w.join();
    return values;
}

} // namespace gemmscope::runner
