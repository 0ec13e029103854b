// The status bar's part while a file is read in its worker: how far (the runs of a large session
// read so far), and a Stop button that gives up on it, the open session left as it was.
#pragma once

#include <QObject>

class QLabel;
class QProgressBar;
class QPushButton;
class QStatusBar;

namespace gemmscope {

class FileOpener;

class OpenProgress : public QObject {
    Q_OBJECT
public:
    OpenProgress(FileOpener *opener, QStatusBar *bar);

private:
    void show(const QString &path, qint64 runsRead, qint64 total);
    void hide();

    FileOpener *m_opener;
    QLabel *m_label;
    QProgressBar *m_bar;
    QPushButton *m_stop;
};

} // namespace gemmscope
