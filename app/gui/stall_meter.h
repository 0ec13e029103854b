// Measures how long the UI thread is kept from its event loop: a 5 ms timer notes the gap
// between its ticks; anything beyond the interval is a stall the user would feel.
#pragma once

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QTimer>

namespace gemmscope {

class UiStallMeter : public QObject {
    Q_OBJECT
public:
    explicit UiStallMeter(int intervalMs = 5, QObject *parent = nullptr);
    void start();
    void stop();
    double maxStallMs() const;                // longest gap minus the interval
    double percentileStallMs(double p) const; // e.g. 0.99
    qsizetype samples() const { return m_gapsMs.size(); }
    // When the longest gap began and ended, in ms since start(): which events filled it.
    double longestGapStartMs() const { return m_longestEndMs - m_longestGapMs; }
    double longestGapEndMs() const { return m_longestEndMs; }

private:
    void tick();
    int m_intervalMs;
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_lastNs = 0;
    QList<double> m_gapsMs;
    double m_longestGapMs = 0, m_longestEndMs = 0; // the whole gap, the interval included
};

} // namespace gemmscope
