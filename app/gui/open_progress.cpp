#include "open_progress.h"

#include "open_actions.h"
#include "run_status_bar.h"

#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>

namespace gemmscope {

OpenProgress::OpenProgress(FileOpener *opener, QStatusBar *bar)
    : QObject(bar), m_opener(opener), m_label(new QLabel), m_bar(new QProgressBar), m_stop(new QPushButton)
{
    m_label->setObjectName(QStringLiteral("openProgressLabel"));
    m_label->setTextFormat(Qt::PlainText); // a file's name: never markup
    m_bar->setObjectName(QStringLiteral("openProgressBar"));
    m_bar->setMaximumWidth(160);
    m_stop->setObjectName(QStringLiteral("openStopButton"));
    m_stop->setText(tr("Stop"));
    m_stop->setToolTip(tr("Stop reading the file; the open session stays as it is."));
    bar->addPermanentWidget(m_label);
    bar->addPermanentWidget(m_bar);
    bar->addPermanentWidget(m_stop);
    hide();
    connect(opener, &FileOpener::readingStarted, this, [this](const QString &path) { show(path, 0, 0); });
    connect(opener, &FileOpener::readingProgress, this, &OpenProgress::show);
    connect(opener, &FileOpener::readingFinished, this, [this] {
        if (!m_opener->isReading())
            hide();
    });
    connect(m_stop, &QPushButton::clicked, opener, &FileOpener::cancelReading);
}

void OpenProgress::show(const QString &path, qint64 runsRead, qint64 total)
{
    // A long name is cut in its middle: the status bar's permanent parts never widen the window.
    const QString name = m_label->fontMetrics().elidedText(QFileInfo(path).fileName(), Qt::ElideMiddle, 240);
    const QLocale locale;
    const auto counted = [&](qint64 read) {
        return tr("Reading %1: %2 of %3 runs").arg(name, locale.toString(read), locale.toString(total));
    };
    m_label->setToolTip(path);
    if (total > 0) {
        // As wide as the last count needs from the first on: the label neither jitters nor is cut
        // while the count grows.
        m_label->setMinimumWidth(m_label->fontMetrics().horizontalAdvance(counted(total)) + 4);
        m_label->setText(counted(runsRead));
        // In thousandths: a QProgressBar's range is an int, a count of runs need not be.
        showProgress(m_bar, int(runsRead * 1000 / total), 1000);
    } else {
        // Until the runs are found (the file read, its kind told), a busy bar: no number is known yet.
        m_label->setMinimumWidth(0);
        m_label->setText(tr("Reading %1…").arg(name));
        m_bar->setRange(0, 0);
        m_bar->setVisible(true);
    }
    m_label->setVisible(true);
    m_stop->setVisible(true);
}

void OpenProgress::hide()
{
    m_label->setVisible(false);
    m_bar->setVisible(false);
    m_stop->setVisible(false);
}

} // namespace gemmscope
