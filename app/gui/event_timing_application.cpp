#include "event_timing_application.h"

#include <QEvent>
#include <QMetaEnum>
#include <QTextStream>
#include <algorithm>
#include <ctime>

namespace gemmscope {

namespace {

double threadCpuMs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

QString eventName(QEvent::Type type)
{
    const char *name = QMetaEnum::fromType<QEvent::Type>().valueToKey(type);
    return name ? QString::fromLatin1(name) : QString::number(int(type));
}

} // namespace

bool EventTimingApplication::notify(QObject *receiver, QEvent *event)
{
    if (!m_noting || m_depth > 0) {
        ++m_depth;
        const bool result = QApplication::notify(receiver, event);
        --m_depth;
        return result;
    }
    // Named before delivery: the event may delete its receiver (DeferredDelete).
    const QString what = QStringLiteral("%1 %2 %3")
                             .arg(QString::fromLatin1(receiver->metaObject()->className()),
                                  receiver->objectName(), eventName(event->type()));
    const double atMs = double(m_since.nsecsElapsed()) / 1e6;
    const double cpuBefore = threadCpuMs();
    QElapsedTimer took;
    took.start();
    ++m_depth;
    const bool result = QApplication::notify(receiver, event);
    --m_depth;
    const double wallMs = double(took.nsecsElapsed()) / 1e6;
    if (wallMs > m_thresholdMs)
        m_slow.append({what, atMs, wallMs, threadCpuMs() - cpuBefore});
    return result;
}

void EventTimingApplication::startNoting(double thresholdMs)
{
    m_thresholdMs = thresholdMs;
    m_slow.clear();
    m_since.start();
    m_noting = true;
}

QString EventTimingApplication::report(int limit, double minMs, double fromMs, double toMs) const
{
    QList<SlowEvent> chosen;
    for (const SlowEvent &e : m_slow)
        if (e.wallMs > minMs && (toMs < 0 || (e.atMs + e.wallMs >= fromMs && e.atMs <= toMs)))
            chosen.append(e);
    if (limit >= 0) // the slowest first; a stall's events stay in the order they ran
        std::sort(chosen.begin(), chosen.end(),
                  [](const SlowEvent &a, const SlowEvent &b) { return a.wallMs > b.wallMs; });
    QString text;
    QTextStream out(&text);
    const qsizetype count = limit >= 0 ? std::min<qsizetype>(limit, chosen.size()) : chosen.size();
    for (qsizetype i = 0; i < count; ++i)
        out << QStringLiteral("  at %1 ms: %2 ms (%3 ms CPU) %4\n")
                   .arg(chosen[i].atMs, 0, 'f', 1)
                   .arg(chosen[i].wallMs, 0, 'f', 1)
                   .arg(chosen[i].cpuMs, 0, 'f', 1)
                   .arg(chosen[i].what);
    return text;
}

} // namespace gemmscope
