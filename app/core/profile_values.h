// Counts and figures of a profile as its analysis reads them (profile_stalls.h, profile_memory.h,
// profile_baseline.h): values from files and runners, where a NaN, a negative or an infinite count
// is no count. Internal to app/core's profile analysis.
#pragma once

#include "events.h"

#include <QString>
#include <cmath>
#include <optional>

namespace gemmscope {

// A sample count or metric as the analysis uses it: finite and >= 0, else nothing.
std::optional<double> usableCount(double value);
// A share in [0, 1] as the views print it: "48 %", "3.8 %", "<0.1 %" (a few samples), "0 %".
QString shareText(double share);

namespace profile_values {

inline double usable(double value)
{
    return usableCount(value).value_or(0.0);
}

// An instruction's PC samples over every reason.
inline double samplesOf(const protocol::ProfileInstruction &i)
{
    double total = 0;
    for (const double n : i.stalls)
        total += usable(n);
    return total;
}

inline std::optional<double> metricOf(const protocol::ProfileInstruction &i, const char *name)
{
    const auto value = i.metric(QLatin1String(name));
    return value ? usableCount(*value) : std::nullopt;
}

inline QString percent(double share) // shareText without its " %"
{
    return shareText(share).chopped(2);
}

inline QString number(double value, int decimals = 1)
{
    return QString::number(value, 'f', decimals);
}

} // namespace profile_values

} // namespace gemmscope
