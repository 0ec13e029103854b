// Test helper: renders a widget at a realistic size to a PNG, so the tests prove it paints and a
// person can look at it. The file goes to $GEMMSCOPE_SHOT_DIR when set (kept), else to a
// temporary folder; returns the path, empty when the PNG could not be written.
#pragma once

#include <QDir>
#include <QImage>
#include <QPainter>
#include <QTemporaryDir>
#include <QWidget>

namespace gemmscope::test {

inline QString renderShot(QWidget *widget, const QSize &size, const QString &name)
{
    static QTemporaryDir fallback;
    const QString dir = qEnvironmentVariableIsSet("GEMMSCOPE_SHOT_DIR")
                            ? qEnvironmentVariable("GEMMSCOPE_SHOT_DIR")
                            : fallback.path();
    QDir().mkpath(dir);
    widget->resize(size);
    widget->show();
    QCoreApplication::processEvents();
    widget->resize(size); // after the layouts settled (heights that follow the width)
    QCoreApplication::processEvents();
    const QString path = QDir(dir).filePath(name + QStringLiteral(".png"));
    return widget->grab().save(path) ? path : QString();
}

} // namespace gemmscope::test
