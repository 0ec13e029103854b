// A command, not a test: how long the problem-size view takes to show a size sweep
// of N series, for N doubling up to 10,000, so that growth is seen to be linear. It prints, per N:
// the time from the session's new sweep to the view's summary and chart being set (plan, summary,
// curves, legend, note), the first full replot, showing it again and closing the view. Offscreen
// unless QT_QPA_PLATFORM says otherwise. Usage: bench_size_sweep_render [largest N, default 10000]
//
// `bench_size_sweep_render running [sizes...]` (default 500 5000): a size sweep of two curves at
// that many sizes, replayed as it runs in the view (tests/support/scripted_sweep_control.h: no
// runner, no session): half its runs at its start, then 20 drawings of 25 new answers each. Per
// drawing, the UI thread's CPU time (the view's update, the replot and paint it asks for) and the
// longest event-loop stall while it ran: what must not grow with the sweep.
#include "session.h"
#include "size_sweep_chart.h"
#include "size_sweep_view.h"
#include "support/controlled_sweep_views.h"
#include "support/long_size_sweep.h"
#include "support/many_series_sweep.h"
#include "support/scripted_sweep_control.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <memory>
#include <qcustomplot.h>

using namespace gemmscope;

namespace {

double threadCpuMs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

// The longest gap between a 5 ms timer's ticks: how long the event loop was kept from turning.
class StallMeter {
public:
    StallMeter()
    {
        m_clock.start();
        m_timer.setInterval(5);
        QObject::connect(&m_timer, &QTimer::timeout, [this] { m_max = std::max(m_max, m_clock.restart()); });
        m_timer.start();
    }
    qint64 maxMs() const { return m_max; }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_max = 0;
};

int runningBench(const QList<int> &sizeCounts)
{
    constexpr int kDrawings = 20, kAnswersPerDrawing = 25;
    std::printf("%8s %8s %10s %18s %16s %16s\n", "sizes", "runs", "start (ms)", "drawing CPU (ms)",
                "max drawing (ms)", "longest stall (ms)");
    for (const int sizes : sizeCounts) {
        const SweepData full = longSizeSweep(sizes);
        SweepData started = full;
        started.runs = full.runs.mid(0, full.runs.size() / 2);
        test::ScriptedSweepControl control(SweepKind::Sizes);
        SizeSweepView view(&control);
        view.resize(1600, 900);
        view.show();
        QApplication::processEvents();
        QElapsedTimer timer;
        timer.start();
        control.begin(started);
        view.chart()->plot()->replot(QCustomPlot::rpImmediateRefresh);
        const qint64 startMs = timer.elapsed();
        QList<double> cpu;
        qsizetype next = started.runs.size();
        StallMeter stall;
        for (int d = 0; d < kDrawings && next < full.runs.size(); ++d) {
            const double before = threadCpuMs();
            for (int a = 0; a < kAnswersPerDrawing && next < full.runs.size(); ++a)
                control.answer(full.runs.at(next++));
            while (view.summary().answered < next) // the view draws at its own pace
                QApplication::processEvents(QEventLoop::WaitForMoreEvents);
            QApplication::processEvents(); // the replot it queued, and the paint
            QApplication::processEvents();
            cpu << threadCpuMs() - before;
        }
        control.end();
        std::sort(cpu.begin(), cpu.end());
        std::printf("%8d %8lld %10lld %18.2f %16.2f %16lld\n", sizes,
                    static_cast<long long>(full.runs.size()), static_cast<long long>(startMs),
                    cpu.value(cpu.size() / 2), cpu.value(cpu.size() - 1),
                    static_cast<long long>(stall.maxMs()));
        std::fflush(stdout);
    }
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    if (argc > 1 && QByteArray(argv[1]) == "running") {
        QList<int> sizes;
        for (int i = 2; i < argc; ++i)
            sizes << std::max(1, QString::fromLocal8Bit(argv[i]).toInt());
        return runningBench(sizes.isEmpty() ? QList<int>{500, 5000} : sizes);
    }
    const int largest = argc > 1 ? std::max(1, QString::fromLocal8Bit(argv[1]).toInt()) : 10000;
    std::printf("%8s %8s %10s %12s %10s %10s %12s %14s\n", "series", "runs", "show (ms)", "replot (ms)",
                "again (ms)", "close (ms)", "total (ms)", "total/series");
    QList<int> counts;
    for (int n = largest; n >= 625 && counts.size() < 5; n /= 2)
        counts.prepend(n);
    for (int n : counts) {
        const SweepData sweep = manySeriesSizeSweep(n);
        Session session;
        auto view = std::make_unique<test::ControlledSizeSweepView>(&session);
        view->resize(1600, 900);
        view->show();
        QApplication::processEvents();
        QElapsedTimer timer;
        timer.start();
        session.setSweep(sweep); // the view plans, summarises and draws it
        const qint64 shown = timer.elapsed();
        view->chart()->plot()->replot(QCustomPlot::rpImmediateRefresh);
        const qint64 drawn = timer.elapsed();
        view->showSweep(sweep);
        view->chart()->plot()->replot(QCustomPlot::rpImmediateRefresh);
        const qint64 again = timer.elapsed();
        view.reset();
        const qint64 total = timer.elapsed();
        std::printf("%8d %8lld %10lld %12lld %10lld %10lld %12lld %14.3f\n", n,
                    static_cast<long long>(sweep.runs.size()), static_cast<long long>(shown),
                    static_cast<long long>(drawn - shown), static_cast<long long>(again - drawn),
                    static_cast<long long>(total - again), static_cast<long long>(total), double(total) / n);
        std::fflush(stdout);
    }
    return 0;
}
