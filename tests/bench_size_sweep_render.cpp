// A command, not a test (issue 21 item 5): how long the problem-size view takes to show a size sweep
// of N series, for N doubling up to 10,000, so that growth is seen to be linear. It prints, per N:
// the time from the session's new sweep to the view's summary and chart being set (plan, summary,
// curves, legend, note), the first full replot, showing it again (what each redraw of a running
// sweep costs: the old curves cleared, the new ones drawn) and closing the view. Offscreen unless
// QT_QPA_PLATFORM says otherwise. Usage: bench_size_sweep_render [largest N, default 10000]
#include "session.h"
#include "size_sweep_chart.h"
#include "size_sweep_view.h"
#include "support/controlled_sweep_views.h"
#include "support/many_series_sweep.h"

#include <QApplication>
#include <QElapsedTimer>
#include <cstdio>
#include <memory>
#include <qcustomplot.h>

using namespace gemmscope;

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
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
