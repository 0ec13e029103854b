#include "stall_meter.h"

#include "statistics.h"

#include <algorithm>

namespace gemmscope {

UiStallMeter::UiStallMeter(int intervalMs, QObject *parent) : QObject(parent), m_intervalMs(intervalMs)
{
    m_timer.setTimerType(Qt::PreciseTimer);
    m_timer.setInterval(intervalMs);
    connect(&m_timer, &QTimer::timeout, this, &UiStallMeter::tick);
}

void UiStallMeter::start()
{
    m_gapsMs.clear();
    m_longestGapMs = m_longestEndMs = 0;
    m_clock.start();
    m_lastNs = 0;
    m_timer.start();
}

void UiStallMeter::stop()
{
    m_timer.stop();
}

void UiStallMeter::tick()
{
    const qint64 now = m_clock.nsecsElapsed();
    const double gapMs = double(now - m_lastNs) / 1e6;
    m_gapsMs << std::max(0.0, gapMs - m_intervalMs);
    if (gapMs > m_longestGapMs) {
        m_longestGapMs = gapMs;
        m_longestEndMs = double(now) / 1e6;
    }
    m_lastNs = now;
}

double UiStallMeter::maxStallMs() const
{
    return m_gapsMs.isEmpty() ? 0 : *std::max_element(m_gapsMs.begin(), m_gapsMs.end());
}

double UiStallMeter::percentileStallMs(double p) const
{
    if (m_gapsMs.isEmpty())
        return 0;
    std::vector<double> sorted(m_gapsMs.begin(), m_gapsMs.end());
    std::sort(sorted.begin(), sorted.end());
    return percentile(sorted, p);
}

} // namespace gemmscope
